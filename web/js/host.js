// The static board's host module (docs/web.md): the page's index.html
// loads `host.js` before its scripts; here it is the API answered in the
// page (board-local.js), where `splut gui` serves an empty module.
import './board-local.js';
