// Wire views of the collections the progression group adds: each appears in get_all and,
// when an operation changes it, in that operation's response.
import type { CollectionView } from '../view.js';

export const progressionCollections: ReadonlyArray<CollectionView> = [];
