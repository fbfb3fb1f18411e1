import { defineMessages } from '../../i18n/define';

export const realms = defineMessages({
  en: {
    area: 'Customers',
    title: 'Realms',
    newRealm: 'New realm',
    uid: 'Identifier',
    name: 'Name',
    active: 'Active',
    customDomain: 'Custom domain',
    created: 'Created',
    updated: 'Updated',
    overview: 'Overview',
    editRealm: 'Edit realm',
  },
  es: {
    area: 'Clientes',
    title: 'Reinos',
    newRealm: 'Nuevo reino',
    uid: 'Identificador',
    name: 'Nombre',
    active: 'Activo',
    customDomain: 'Dominio propio',
    created: 'Creado',
    updated: 'Actualizado',
    overview: 'Resumen',
    editRealm: 'Editar reino',
  },
});
