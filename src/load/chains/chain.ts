/**
 * A token chain and the conversation that follows one, as every profile's conversations use them,
 * in `tack load`'s engine and in Artillery's virtual users alike (nothing here talks to a target).
 *
 * A chain's token lives only in its `LoadChain` object: never printed, never registered with the
 * redactor (there may be millions), never written anywhere but the token pool file.
 */
export class LoadChain {
  rotations = 0;
  /** Set when a request of this chain got no answer: a refusal that follows may be our own loss. */
  uncertain = false;
  /** The chain has ended (broken, or a 2xx without a usable token): its connection closes. */
  ended = false;
  /**
   * Tokens of the chain besides `token` that may still be usable: the extra successors a race probe
   * left (load-profiles/race-probe.ts). Listed in the run's ledger and revoked at the end.
   */
  readonly spares: string[] = [];

  constructor(
    readonly label: string,
    public token: string,
    /** Index in the token pool (hookless mode). */
    readonly poolIndex: number | undefined,
  ) {}
}

/**
 * A conversation that follows one chain: its label, rotation count and end are the chain's.
 * Profiles extend it with `next()`, `answer()` and `lost()`.
 */
export abstract class ChainConversation {
  constructor(protected readonly chain: LoadChain) {}

  get label(): string {
    return this.chain.label;
  }
  get rotations(): number {
    return this.chain.rotations;
  }
  get ended(): boolean {
    return this.chain.ended;
  }
}

/** The chain of connection `index`: exactly one connection per chain (two would race each other). */
export function chainAt<T>(chains: readonly T[], index: number): T {
  const chain = chains[index];
  if (chain === undefined) throw new Error(`connection ${index + 1} has no chain of its own (${chains.length} chains)`);
  return chain;
}

/** Runs `fn` over `items`, at most `limit` at a time, keeping order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
