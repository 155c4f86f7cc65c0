// The demo page (index.html): widgets, the streamed answer and the chat, all through @api/client.
import { startAsk } from './ask';
import { startChat } from './chat';
import { startWidgets } from './widgets';

startAsk();
void startChat();
await startWidgets();
document.body.dataset.ready = 'true';
