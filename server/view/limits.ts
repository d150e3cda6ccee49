/** How many of the last steps the view lists. */
export const LAST_STEPS = 20;

/** Steps a report replays at most: about 7 MB of page. Beyond them the heat map and figures still count every step. */
export const REPORT_PATH_LIMIT = 1_000_000;

/**
 * The largest graph (bytes of its JSON) a walk's event stream carries. A larger one is left out, the message
 * saying how large it is (`graphBytes`), and the page reads it once with the route's `GET`: a stream then
 * costs little whatever the model, and a reader that never reads holds no more than a small message.
 */
export const STREAM_GRAPH_BYTES = 256 * 1024;
