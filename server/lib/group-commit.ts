/**
 * Group commit: work submitted while a batch is being written waits for the next batch, and each batch is written
 * by one call (one transaction), so many small writes that touch the same hot rows share those rows' locks and
 * statements instead of queueing behind each other one at a time. A submitter's promise settles when its batch is
 * written, with its own result, so nothing is answered before it is stored.
 *
 * At low load a batch is one item, written at once (after the current turn of the event loop, so requests that
 * arrived together go together); under load batches grow by themselves while the previous one is written.
 */
export class GroupCommit<In, Out> {
  private queue: Array<{ item: In; resolve: (out: Out) => void; reject: (err: unknown) => void }> = []
  private running: Promise<void> | undefined

  /**
   * `write` stores a batch and answers one result per item, in order: a value, or the Error that item alone fails
   * with. A thrown error fails the whole batch.
   */
  constructor(
    private readonly write: (items: readonly In[]) => Promise<ReadonlyArray<Out | Error>>,
    private readonly maxBatch = 256,
  ) {}

  submit(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ item, resolve, reject })
      this.running ??= new Promise<void>((started) => setImmediate(started)).then(() => this.drain())
    })
  }

  /** Resolves when everything submitted so far is written. */
  async close(): Promise<void> {
    while (this.running) await this.running
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch)
        try {
          const results = await this.write(batch.map((b) => b.item))
          batch.forEach((b, i) => {
            const result = results[i]
            if (result instanceof Error) b.reject(result)
            else b.resolve(result as Out)
          })
        } catch (err) {
          for (const b of batch) b.reject(err)
        }
      }
    } finally {
      this.running = undefined
    }
  }
}
