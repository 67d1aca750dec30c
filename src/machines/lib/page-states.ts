// The states of a list the server gives a page at a time (docs/product.md, "Paging"), for the machines that read it as
// they open and add pages with Load more: Manage Lists, the follow requests, the blocked and the muted members. The
// first page shows behind a spinner; a later page that fails keeps the rows shown, and Load more stays offered so the
// member can try again. The machine supplies the loading actor (input `{ cursor }`, answering a page) and the actions
// that show a page.

/** An action's params: the answer of the actor that just finished. */
const output = <T>({ event }: { event: { output: T } }): T => event.output

/**
 * The first page, as the list opens (tag `loading`): `show` shows it and `ready` follows; a failure goes to `failed`,
 * whose Try again the machine offers.
 */
export function firstPageState<const TSrc extends string, const TShow extends string>(load: { id: string; src: TSrc; show: TShow }) {
  return {
    tags: ['loading'],
    invoke: {
      id: load.id,
      src: load.src,
      input: { cursor: null },
      onDone: { target: 'ready', actions: { type: load.show, params: output } },
      onError: { target: 'failed' },
    },
  } as const
}

/** The next page, from a sibling `idle` and back to it (tagged `tags`: the other buttons wait): `append` adds it. */
export function nextPageState<TContext, const TSrc extends string, const TAppend extends string, const TTags extends readonly string[]>(load: {
  src: TSrc
  append: TAppend
  cursor: (context: TContext) => string | null
  tags: TTags
}) {
  return {
    tags: load.tags,
    invoke: {
      id: 'loadMore',
      src: load.src,
      input: ({ context }: { context: TContext }) => ({ cursor: load.cursor(context) }),
      onDone: { target: 'idle', actions: { type: load.append, params: output } },
      // The rows shown stay, and so does Load more.
      onError: { target: 'idle' },
    },
  } as const
}
