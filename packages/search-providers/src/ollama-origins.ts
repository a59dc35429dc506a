// Apart from the provider so configuration and help text can name these without loading it (and the
// network stack it imports).

/** Where a local or self-hosted Ollama listens unless configured otherwise. */
export const DEFAULT_OLLAMA_BASE_URL = 'http://127.0.0.1:11434';
/** The one origin that receives an Ollama API key. */
export const OLLAMA_HOSTED_ORIGIN = 'https://ollama.com';
