import { defineMessages } from '../../i18n/define';

export const engagement = defineMessages({
  en: {
    area: 'Engagement', segments: 'Segments', newSegment: 'New segment', segmentName: 'Name', realm: 'Realm',
    summary: 'Summary', matchesCount: 'Matches', updated: 'Updated', chooseRealm: 'Choose a realm first.',
    attrEmail: 'Email', attrUsername: 'Username', attrFirstName: 'First name', attrLastName: 'Last name', attrActive: 'Active',
    attrCreatedAt: 'Signed up', attrLastLoginAt: 'Last sign-in', attrCount: 'count', attrLastAt: 'last time',
    all: 'All of', any: 'Any of', attribute: 'Attribute', operator: 'Operator', value: 'Value', combinator: 'Match',
    addCondition: 'Add condition', addGroup: 'Add group', removeCondition: 'Remove condition', removeGroup: 'Remove group',
    moveUp: 'Move up', moveDown: 'Move down', matches: '{count} matching users', stale: 'updating…',
    firstMatches: 'First matching users',
    campaigns: 'Campaigns', newCampaign: 'New campaign', campaignName: 'Campaign name', type: 'Type', mailing: 'Mailing',
    notification: 'Notification', subject: 'Subject (Liquid)', body: 'Body (Liquid)', sentCount: 'Sent',
    previewUserId: 'User id for the preview', preview: 'Preview',
  },
  es: {
    area: 'Interacción', segments: 'Segmentos', newSegment: 'Nuevo segmento', segmentName: 'Nombre', realm: 'Reino',
    summary: 'Resumen', matchesCount: 'Coincidencias', updated: 'Actualizado', chooseRealm: 'Elige primero un reino.',
    attrEmail: 'Correo', attrUsername: 'Nombre de usuario', attrFirstName: 'Nombre', attrLastName: 'Apellido', attrActive: 'Activo',
    attrCreatedAt: 'Registro', attrLastLoginAt: 'Último acceso', attrCount: 'cantidad', attrLastAt: 'última vez',
    all: 'Todas', any: 'Alguna', attribute: 'Atributo', operator: 'Operador', value: 'Valor', combinator: 'Coincidir',
    addCondition: 'Añadir condición', addGroup: 'Añadir grupo', removeCondition: 'Quitar condición', removeGroup: 'Quitar grupo',
    moveUp: 'Subir', moveDown: 'Bajar', matches: '{count} usuarios coinciden', stale: 'actualizando…',
    firstMatches: 'Primeros usuarios que coinciden',
    campaigns: 'Campañas', newCampaign: 'Nueva campaña', campaignName: 'Nombre de la campaña', type: 'Tipo', mailing: 'Correo masivo',
    notification: 'Notificación', subject: 'Asunto (Liquid)', body: 'Cuerpo (Liquid)', sentCount: 'Enviados',
    previewUserId: 'Id de usuario para la vista previa', preview: 'Vista previa',
  },
});
