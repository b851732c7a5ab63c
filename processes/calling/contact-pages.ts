import { campaignStream, CONTACTS_PER_EVENT, type CampaignContact, type CampaignEvent } from '../../domain/campaign.ts';
import { isEventOfType } from '../../domain/shared/decider.ts';
import type { EventStore } from '../../infra/eventstore/port.ts';

/** Pages kept in memory, all campaigns together (a page is one ContactsAdded event: up to 1,000 contacts). */
const DEFAULT_MAX_PAGES = 32;

/**
 * The details of a campaign's contacts (phone, name, custom variables), which the campaign's folded state does not
 * keep: read from its ContactsAdded events a page at a time, and the pages last used kept (a dialer walking a
 * campaign in index order reads each page once). A campaign's ContactsAdded events follow its CampaignCreated in
 * the same append, in index order, so contact k is in the event at revision 1 + floor(k / 1,000).
 */
export class ContactPages {
  private readonly pages = new Map<string, Promise<readonly CampaignContact[]>>();

  constructor(
    private readonly store: Pick<EventStore, 'readStream'>,
    private readonly maxPages = DEFAULT_MAX_PAGES,
  ) {}

  async contact(campaignId: string, index: number): Promise<CampaignContact> {
    const page = Math.floor(index / CONTACTS_PER_EVENT);
    const contacts = await this.page(campaignId, page);
    const contact = contacts[index - page * CONTACTS_PER_EVENT];
    if (contact?.index !== index) throw new Error(`campaign ${campaignId} has no contact ${index} where it is expected`);
    return contact;
  }

  /** Forgets a campaign's pages (it no longer dials). */
  forget(campaignId: string): void {
    for (const key of this.pages.keys()) if (key.startsWith(`${campaignId}:`)) this.pages.delete(key);
  }

  private page(campaignId: string, page: number): Promise<readonly CampaignContact[]> {
    const key = `${campaignId}:${page}`;
    let contacts = this.pages.get(key);
    if (contacts) {
      // Most recently used last: the map's first key is the one to evict.
      this.pages.delete(key);
    } else {
      contacts = this.read(campaignId, page);
      // A failed read is not remembered: the next dial reads again.
      contacts.catch(() => this.pages.delete(key));
    }
    this.pages.set(key, contacts);
    while (this.pages.size > this.maxPages) this.pages.delete(this.pages.keys().next().value!);
    return contacts;
  }

  private async read(campaignId: string, page: number): Promise<readonly CampaignContact[]> {
    const [event] = await this.store.readStream(campaignStream(campaignId), { fromRevision: 1 + page, limit: 1 });
    if (!event || !isEventOfType<CampaignEvent, 'ContactsAdded'>(event, 'ContactsAdded')) {
      throw new Error(`campaign ${campaignId} has no contacts page ${page}`);
    }
    return event.data.contacts;
  }
}
