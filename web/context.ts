import { createContext } from 'react-router';
import type { ApiClient } from './common/api-client.ts';

/** The API as seen by loaders on the server: the same endpoints, called in-process with the visitor's cookies. */
export const apiContext = createContext<ApiClient>();

/** The CSP nonce of this response's inline scripts (set by the server for each page). */
export const nonceContext = createContext<string | undefined>(undefined);

/** Facts about the shop the pages need: its public address (for canonical URLs and sharing). */
export const shopContext = createContext<{ publicUrl: string }>({ publicUrl: '' });
