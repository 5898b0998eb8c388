// Placeholder front end: shows whether the API answers. The real app comes later.
const status = document.getElementById("status");
fetch("/api/v1/health")
	.then((r) => r.json().then((body) => ({ ok: r.ok, body })))
	.then(({ ok, body }) => {
		status.textContent = ok ? "Server ready." : `Server degraded: ${body.detail || "unknown"}`;
	})
	.catch(() => {
		status.textContent = "Server unreachable.";
	});
