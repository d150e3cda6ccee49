import http from 'node:http';

/**
 * A viewer of the web view as the benchmark plays it: one Server-Sent Events stream of a session, read to
 * the end of each message and parsed, as a page would, and counted.
 */
export class Viewer {
  messages = 0;
  /** When each message came, in performance.now() milliseconds. */
  readonly times: number[] = [];

  private constructor(private readonly request: http.ClientRequest) {}

  /** Opens the stream and waits for its first message, the walk as it stands. */
  static open(port: number, path: string): Promise<Viewer> {
    return new Promise((resolve, reject) => {
      const request = http.get({ host: '127.0.0.1', port, path, agent: false }, (response) => {
        if (response.statusCode !== 200) return reject(new Error(`${path} answered ${response.statusCode}`));
        const viewer = new Viewer(request);
        let buffer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffer += chunk;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            if (!block.startsWith('data: ')) continue;
            JSON.parse(block.slice(6));
            viewer.times.push(performance.now());
            if (viewer.messages++ === 0) resolve(viewer);
          }
        });
        response.on('error', () => {});
      });
      request.on('error', reject);
    });
  }

  close(): void {
    this.request.destroy();
  }
}
