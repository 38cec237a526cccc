import { server } from '../../mocks/node';

/** Every request the app sends to the waiting list, as the mock backend receives it. */
export function recordWaitlistRequests() {
  const requests: Request[] = [];
  server.events.on('request:start', ({ request }) => {
    if (new URL(request.url).pathname === '/rest/v1/waiting_list') requests.push(request.clone());
  });
  return requests;
}
