// The computer players' search, in a Web Worker off the page's drawing thread: the AI crate
// alone (crates/qiguo-worker). Each message is a search job (JSON); each answer its result. A
// message `review:` and a review job is a game's review, answered `review:` and the review; one
// `judge:` and a judge job a move tried in place of a mistake, answered `judge:` and its chance.
import init, { think, review, judge } from "./@WORKER_JS@";

const ready = init({ module_or_path: "@WORKER_WASM@" });

self.onmessage = async (event) => {
  await ready;
  const text = event.data;
  if (text.startsWith("review:")) {
    self.postMessage("review:" + review(text.slice("review:".length)));
  } else if (text.startsWith("judge:")) {
    self.postMessage("judge:" + judge(text.slice("judge:".length)));
  } else {
    self.postMessage(think(text));
  }
};
