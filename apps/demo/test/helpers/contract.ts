// The OpenAPI contract check over the responses a test file produced: every recorded response
// must match what the demo's own /openapi.json declares for its operation, status and media type.
import {
  checkContract as checkAgainstDocument,
  fetchDocument,
  type ContractReport,
  type Document,
  type RecordedExchange,
} from './conformance';
import { startDemo } from './demo';

/** The document a fresh demo serves at /openapi.json. */
export async function demoDocument(): Promise<Document> {
  const { client } = await startDemo();
  try {
    return await fetchDocument(client.url);
  } finally {
    await client.close();
  }
}

/** Checks `exchanges` against the demo's served document. */
export async function checkContract(exchanges: readonly RecordedExchange[]): Promise<ContractReport> {
  return checkAgainstDocument(await demoDocument(), exchanges);
}
