/**
 * Resumability for one 2025 MCP session: the last messages of each SSE stream, so a client that lost
 * its connection reconnects with Last-Event-ID and misses nothing (SEP-1699). Bounded per session.
 */
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

const KEEP = 200;

export class SessionEventStore implements EventStore {
  #seq = 0;
  #events: Array<{ id: string; streamId: string; message: JSONRPCMessage }> = [];

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}_${++this.#seq}`;
    this.#events.push({ id, streamId, message });
    if (this.#events.length > KEEP) this.#events.splice(0, this.#events.length - KEEP);
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.#events.find((e) => e.id === eventId)?.streamId ?? eventId.slice(0, eventId.lastIndexOf('_'));
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const streamId = (await this.getStreamIdForEventId(lastEventId)) ?? '';
    const after = Number(lastEventId.slice(lastEventId.lastIndexOf('_') + 1));
    for (const e of this.#events) if (e.streamId === streamId && Number(e.id.slice(e.id.lastIndexOf('_') + 1)) > after) await send(e.id, e.message);
    return streamId;
  }
}
