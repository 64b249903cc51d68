/** The first `n` paper ids of the emulator's bulk order, fetched before any timing starts. */
export const paperIds = async (apiUrl: string, n: number): Promise<Array<string>> => {
  const ids: Array<string> = []
  let token: string | null | undefined
  while (ids.length < n && token !== null) {
    const url = `${apiUrl}/graph/v1/paper/search/bulk?query=&fields=paperId${
      token === undefined ? "" : `&token=${token}`
    }`
    const page: { token: string | null; data?: Array<{ paperId: string }> } = await (await fetch(url)).json()
    for (const p of page.data ?? []) ids.push(p.paperId)
    token = page.token
  }
  return ids.slice(0, n)
}
