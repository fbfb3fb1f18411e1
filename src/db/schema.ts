// Every table of every feature, in one place for drizzle-kit and for the typed database handle.
export * from '../account/tables.js';
export * from '../admin-auth/tables.js';
export * from '../realms/tables.js';
export * from '../oauth/tables.js';
export * from '../events/tables.js';
export * from '../attempts/tables.js';
export * from '../otp/tables.js';
export * from '../notifications/tables.js';
export * from '../integrations/zendesk/tables.js';
export * from '../impersonation/tables.js';
export * from '../delegation/tables.js';
export * from '../jobs/tables.js';
export * from '../segments/tables.js';
export * from '../originations/tables.js';
export * from '../messaging/tables.js';
export * from '../content/tables.js';
