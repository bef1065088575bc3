/** The balance and the builds, rendered as HTML from the API at `apiBase` with `key`. */
export function renderBuildsPage(fetchApi: (url: string, init: RequestInit) => Promise<Response>, apiBase: string, key: string): Promise<string>;
