# A BG Stats export read the way published R scripts read one (jsonlite's fromJSON, objects
# joined by their ids with `$`): per play, its uuid, the name of its game (gameRefId against
# games$id), its location's name, the names of its expansions' games and of its players
# (playerRefId against players$id), with each seat's score and winner flag.
# Usage: Rscript --vanilla export_readers.R FILE... ; prints one JSON object, by file, on stdout.
suppressPackageStartupMessages(library(jsonlite))

name_of <- function(table, ids) {
  if (is.null(ids) || length(ids) == 0) return(character(0))
  as.character(table$name[match(ids, table$id)])
}

read_plays <- function(path) {
  doc <- fromJSON(path)
  games <- doc$games
  players <- doc$players
  locations <- doc$locations
  plays <- doc$plays
  lapply(seq_len(NROW(plays)), function(i) {
    seats <- plays$playerScores[[i]]
    exp <- if ("expansionPlays" %in% names(plays)) plays$expansionPlays[[i]] else NULL
    loc <- if ("locationRefId" %in% names(plays)) plays$locationRefId[i] else NA
    list(
      uuid = unbox(plays$uuid[i]),
      game = name_of(games, plays$gameRefId[i]),
      location = if (is.na(loc) || is.null(locations)) character(0) else name_of(locations, loc),
      expansions = if (NROW(exp) == 0) character(0) else name_of(games, exp$gameRefId),
      players = if (NROW(seats) == 0) character(0) else name_of(players, seats$playerRefId),
      scores = if (NROW(seats) == 0 || !("score" %in% names(seats))) character(0)
               else as.character(seats$score),
      winners = if (NROW(seats) == 0 || !("winner" %in% names(seats))) logical(0)
                else as.logical(seats$winner)
    )
  })
}

args <- commandArgs(trailingOnly = TRUE)
out <- setNames(lapply(args, read_plays), args)
cat(toJSON(out, na = "null", null = "null"))
