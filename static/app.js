// Entry point of the front end (ES modules, no build step): see main.js.
import { start } from "./main.js";

start();
