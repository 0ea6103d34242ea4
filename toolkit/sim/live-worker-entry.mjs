// The live preview's worker under tsx (npm run sim runs TypeScript): a worker thread
// does not inherit tsx's loader, so it loads the worker module through tsx's API.
import { tsImport } from 'tsx/esm/api';

await tsImport('./live-worker.ts', import.meta.url);
