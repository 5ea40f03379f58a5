import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ShutdownDrain } from './shutdown-drain.service';

/** While the instance stops, every response tells the client not to reuse the connection. */
export function closeConnectionsWhenStopping(app: NestFastifyApplication): void {
  const drain = app.get(ShutdownDrain);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', (_request, reply, payload, done) => {
      if (drain.stopping) void reply.header('connection', 'close');
      done(null, payload);
    });
}
