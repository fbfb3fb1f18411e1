/** A database that cannot be opened; the message is the one line shown at start. */
export class DatabaseUnavailable extends Error {}
