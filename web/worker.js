// The computer players' search, in a Web Worker off the page's drawing thread: the AI crate
// alone (crates/qiguo-worker). Each message is a search job (JSON); each answer its result.
import init, { think } from "./@WORKER_JS@";

const ready = init({ module_or_path: "@WORKER_WASM@" });

self.onmessage = async (event) => {
  await ready;
  self.postMessage(think(event.data));
};
