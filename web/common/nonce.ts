import { createContext, useContext } from 'react';

/** The CSP nonce of the page being rendered on the server; undefined in the browser, which needs none. */
export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = () => useContext(NonceContext);
