/**
 * The modes of everything Atrium writes under its data folder (stored files, the outbox's mails, the embedded cluster,
 * the generated secrets key): its own user's alone, as PostgreSQL makes its own cluster. Other users of the machine can
 * neither read a one-time code in a mail nor write into a database file.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_FOLDER_MODE = 0o700;
