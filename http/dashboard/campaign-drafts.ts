import { randomBytes } from 'node:crypto';
import type { ParsedCsv } from './contact-import.ts';

/** What the first step of "new campaign" collected, kept while the operator maps columns and fixes the file. */
export interface CampaignDraft {
  keyId: string;
  csv: ParsedCsv;
  fileName: string;
  settings: Record<string, string>;
  createdMs: number;
}

const DRAFT_TTL_MS = 30 * 60_000;
/** A draft holds up to 100,000 rows: few are kept at once (the oldest goes first), one per key. */
const MAX_DRAFTS = 8;

export class CampaignDrafts {
  private readonly drafts = new Map<string, CampaignDraft>();

  add(draft: Omit<CampaignDraft, 'createdMs'>): string {
    for (const [id, existing] of this.drafts) if (existing.keyId === draft.keyId) this.drafts.delete(id);
    if (this.drafts.size >= MAX_DRAFTS) this.drafts.delete(this.drafts.keys().next().value!);
    const id = randomBytes(16).toString('base64url');
    this.drafts.set(id, { ...draft, createdMs: Date.now() });
    return id;
  }

  /** The draft, only for the key that made it and while fresh. */
  get(id: unknown, keyId: string): CampaignDraft | undefined {
    if (typeof id !== 'string') return undefined;
    const draft = this.drafts.get(id);
    if (!draft || draft.keyId !== keyId) return undefined;
    if (Date.now() - draft.createdMs > DRAFT_TTL_MS) {
      this.drafts.delete(id);
      return undefined;
    }
    return draft;
  }

  remove(id: string): void {
    this.drafts.delete(id);
  }
}
