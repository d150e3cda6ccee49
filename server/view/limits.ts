/** How many of the last steps the view lists. */
export const LAST_STEPS = 20;

/** Steps a report replays at most: about 7 MB of page. Beyond them the heat map and figures still count every step. */
export const REPORT_PATH_LIMIT = 1_000_000;
