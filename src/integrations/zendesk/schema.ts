import { Type } from '@sinclair/typebox';
import { DateTime } from '../../http/models.js';

export const ZendeskIntegrationInput = Type.Object({
  subdomain: Type.Optional(Type.String({
    maxLength: 63, description: 'The help desk\'s subdomain label: `acme` for acme.zendesk.com (letters, digits and inner hyphens)',
  })),
  key_id: Type.Optional(Type.String({ maxLength: 255, description: 'The key id Zendesk shows next to the shared secret; sent as the JWT header `kid`' })),
  shared_secret: Type.Optional(Type.String({
    maxLength: 1024, writeOnly: true, description: 'Write only: never answered. Left out once configured, the stored one is kept',
  })),
}, { additionalProperties: false });

export const ZendeskIntegrationModel = Type.Object({
  subdomain: Type.String(),
  key_id: Type.String(),
  configured: Type.Literal(true, { description: 'A shared secret is stored (it is never shown)' }),
  created_at: DateTime,
  updated_at: DateTime,
}, { $id: 'ZendeskIntegration', description: 'A realm\'s Zendesk single sign-on settings, without the shared secret' });

export const ZendeskTokenModel = Type.Object({
  token: Type.String({ description: 'A JWT (HS256, header `kid`) for Zendesk, valid five minutes' }),
}, { $id: 'ZendeskToken' });

export const ZendeskSsoUrlModel = Type.Object({
  url: Type.String({ format: 'uri', description: 'https://{subdomain}.zendesk.com/access/jwt?jwt={JWT}: open it to sign in to the help desk' }),
}, { $id: 'ZendeskSsoUrl' });
