/**
 * Resumability for one 2025 MCP session: the last messages of each SSE stream, so a client that lost
 * its connection reconnects with Last-Event-ID and misses nothing (SEP-1699). Bounded per session,
 * and kept as JSON text: every answer of the session passes through here, and kept as live objects,
 * the messages of many busy sessions would hold most of a server's memory (docs/benchmarks.md,
 * footprint). A replay, which is rare, parses them again.
 */
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

/** A reconnecting client needs what it missed in a few seconds: the answers in flight and the notifications of that moment. */
const KEEP = 64;

export class SessionEventStore implements EventStore {
  #seq = 0;
  #events: Array<{ id: string; streamId: string; json: string }> = [];

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}_${++this.#seq}`;
    this.#events.push({ id, streamId, json: JSON.stringify(message) });
    if (this.#events.length > KEEP) this.#events.splice(0, this.#events.length - KEEP);
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.#events.find((e) => e.id === eventId)?.streamId ?? eventId.slice(0, eventId.lastIndexOf('_'));
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const streamId = (await this.getStreamIdForEventId(lastEventId)) ?? '';
    const after = Number(lastEventId.slice(lastEventId.lastIndexOf('_') + 1));
    for (const e of this.#events) if (e.streamId === streamId && Number(e.id.slice(e.id.lastIndexOf('_') + 1)) > after) await send(e.id, JSON.parse(e.json) as JSONRPCMessage);
    return streamId;
  }
}
