import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable } from '../../http/models.js';
import { OnlyQuery } from '../../http/only.js';
import { ListQuery } from '../../http/list-query.js';

export const AssetModel = Type.Object({
  uuid: Type.String({ format: 'uuid', description: 'What an asset field of an entry holds: {"uuid": "..."}' }),
  space: Type.String({ description: 'The space\'s uid' }),
  file_name: Type.String({ description: 'The name it was uploaded with; the last part of its URL' }),
  content_type: Type.String({ description: 'The media type its content was checked to be, which it is served as' }),
  size: Type.Integer({ minimum: 0, description: 'In bytes' }),
  title: Nullable(Type.String(), 'A text for display (alternative text of an image)'),
  url: Type.String({ description: 'Its public address in the content API; it never changes, and is cached for good' }),
  created_at: DateTime,
  updated_at: DateTime,
}, { $id: 'ContentAsset', description: 'An uploaded image or file of a content space, served publicly at its URL' });

export type AssetBody = Static<typeof AssetModel>;

export const AssetListItem = Type.Partial(AssetModel, { $id: 'ContentAssetListItem', description: 'An asset in a list: trimmed to the attributes `only` names' });

export const AssetParams = Type.Object({
  space_uid: Type.String({ description: 'The space\'s uid' }),
  uuid: Type.String({ description: 'The asset\'s uuid' }),
});

export const AssetFileParams = Type.Object({
  ...AssetParams.properties,
  file_name: Type.String({ description: 'The asset\'s file name, as its URL has it' }),
});

export const AssetListQuery = ListQuery({ searched: 'the file name', sortable: ['file_name', 'size', 'created_at', 'updated_at'], by: 'updated_at', order: 'desc' }, OnlyQuery);
