import type { ServerResponse } from 'node:http';

/**
 * Bytes an event stream may have waiting in the server for one client. A client that reads
 * keeps it near zero; one that stops reading (a frozen browser tab, `curl -N … | less`)
 * would otherwise make the server hold every later event for it, without end.
 */
export const STREAM_BUFFER_LIMIT = 1024 * 1024;
/** How long a client that was cut off has to take its last event before its connection is closed. */
const LAST_EVENT_GRACE_MS = 2000;

export interface BoundedEventStream {
  /** Writes the chunk; answers false, once the stream is cut off, for every later chunk. */
  write(chunk: string | Uint8Array): boolean;
  readonly cutOff: boolean;
}

/**
 * Writes an event stream to one client with backpressure: when more than `limitBytes` wait
 * for the client, the stream ends with a last event saying why (`event: closed`, data
 * `{ reason: "slow-reader", … }`) and `onCutOff` is told, so the source stops producing.
 * If the client does not take even that last event, the connection is closed under it, so
 * what it left unread is freed. A client that reconnects (with `Last-Event-ID` on the
 * journal) resumes where it was.
 */
export function boundedEventStream(res: ServerResponse, onCutOff: () => void, limitBytes = STREAM_BUFFER_LIMIT): BoundedEventStream {
  let cutOff = false;
  const cut = () => {
    cutOff = true;
    const waiting = res.writableLength;
    const reason = {
      reason: 'slow-reader',
      message: `The client fell ${waiting} bytes behind, past the limit of ${limitBytes}: the stream ends here. Read faster, then reconnect.`,
      bufferedBytes: waiting,
      limitBytes,
    };
    // The connection goes with the stream: it is not kept alive for another request.
    const socket = res.socket;
    res.once('finish', () => socket?.end());
    res.end(`event: closed\ndata: ${JSON.stringify(reason)}\n\n`);
    const closer = setTimeout(() => res.destroy(), LAST_EVENT_GRACE_MS);
    closer.unref();
    res.once('close', () => clearTimeout(closer));
    onCutOff();
  };
  return {
    write(chunk) {
      if (cutOff || res.writableEnded || res.destroyed) return false;
      if (res.writableLength > limitBytes) {
        cut();
        return false;
      }
      res.write(chunk);
      return true;
    },
    get cutOff() {
      return cutOff;
    },
  };
}
