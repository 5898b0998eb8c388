-- wrk script: POST /api/v1/er/score with a realistic late-game sheet (22 patients).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [==[{"sheet":{"wards":[[{"value":1},{"value":3,"critical":true},{"value":4},{"value":6}],[{"value":2},{"value":3},{"value":5,"screen":true},{"value":1}],[{"value":1},{"value":2},{"value":4,"critical":true}],[{"value":3},{"value":5}],[{"value":2},{"value":4},{"value":6,"screen":true},{"value":2}],[{"value":1},{"value":3},{"value":4},{"value":5}],[{"value":6,"critical":true}]],"nurses_crossed":[1,3,6],"nurse_track":3,"stethoscopes":{"circled":7,"used":5},"blood_bags":{"circled":3,"used":2},"morgue":1,"cardiologists":[8,0]},"radiologist":"xray-matching-set","epidemiologist":"odd-even-triangles"}]==]
