// A database across a network, on one machine, for PostgreSQL's round trips:
//
//   node bench/delay-proxy.mjs LISTEN_PORT TARGET_PORT [DELAY_MS]
//
// forwards TCP from 127.0.0.1:LISTEN_PORT to 127.0.0.1:TARGET_PORT, holding every chunk DELAY_MS
// (default 1; Node's timers make it about that or a little more) in each direction. Point Quire at
// it (`quire serve --database postgres://postgres@127.0.0.1:5433/DB` with `5433 5432`) to see what
// round trips cost when PostgreSQL is on another machine: loopback hides them. Both sockets send at
// once (no Nagle), as PostgreSQL's and node-postgres' own do: with Nagle the proxy itself would add
// delayed-ACK waits that no real network path adds.
import net from 'node:net';

const [, , listen = '5433', target = '5432', delay = '1'] = process.argv;

net
  .createServer((client) => {
    const server = net.connect(Number(target), '127.0.0.1');
    client.setNoDelay(true);
    server.setNoDelay(true);
    const pipe = (from, to) => {
      from.on('data', (chunk) => setTimeout(() => to.write(chunk), Number(delay)));
      from.on('end', () => setTimeout(() => to.end(), Number(delay)));
      from.on('error', () => to.destroy());
    };
    pipe(client, server);
    pipe(server, client);
  })
  .listen(Number(listen), '127.0.0.1', () =>
    process.stderr.write(`forwarding 127.0.0.1:${listen} -> ${target}, ${delay} ms each way\n`),
  );
