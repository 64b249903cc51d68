/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The API root the page calls: your proxy in production (which adds the key), or an emulator. */
  readonly VITE_S2_API_URL?: string
}
