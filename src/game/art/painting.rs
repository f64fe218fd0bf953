//! Pictures drawn off the frame. The start's whole textures — the stones' faces, the board's
//! top and the table — are seconds of a phone's time, and a frame that draws them stops the
//! page for as long: the player's first touches wait, and a browser counts the page as blocked.
//! So a picture is drawn in small pieces (a face, a few rows of wood) by a [`Painting`]: on the
//! desktop on a thread of the task pool while the frames go on; in a page (one thread) each
//! piece in a task of the browser's own ([`next_piece`]), so that between two pieces the page
//! draws its frames and answers input. Meanwhile the game shows a smaller first picture drawn
//! at once; once the whole one is done the game is woken, and the picture's owner takes it
//! ([`Painting::take`]) and wears it.

use bevy::tasks::futures::check_ready;
use bevy::tasks::{AsyncComputeTaskPool, ConditionalSend, ConditionalSendFuture, Task, TaskPool};

use crate::game::frames::Waker;

/// A picture being drawn off the frame. Dropped before it is done, it is no longer drawn (a
/// palette changed while a face was being drawn in the old one).
pub(crate) struct Painting<T>(Option<Task<T>>);

impl<T: ConditionalSend + 'static> Painting<T> {
    /// Starts drawing `picture` (an `async` block that awaits [`next_piece`] between its
    /// pieces); `waker` asks for a frame once it is done.
    pub(crate) fn start(
        waker: &Waker,
        picture: impl ConditionalSendFuture<Output = T> + 'static,
    ) -> Painting<T> {
        let waker = waker.clone();
        let pool = AsyncComputeTaskPool::get_or_init(TaskPool::default);
        Painting(Some(pool.spawn(async move {
            let done = picture.await;
            waker.wake();
            done
        })))
    }

    /// The picture, once it is done (then never again).
    pub(crate) fn take(&mut self) -> Option<T> {
        let mut task = self.0.take_if(|task| task.is_finished())?;
        let picture = check_ready(&mut task);
        if picture.is_none() {
            self.0 = Some(task);
        }
        picture
    }
}

/// Gives the thread back between two pieces of a picture. In a page the next piece waits for
/// a task of its own, posted through a message channel (a timer's zero wait grows to
/// milliseconds after a few, and to a second in a hidden tab), so that the browser draws a
/// frame and answers input in between; on the desktop the picture has a thread of its own and
/// goes on at once, after the pool's other tasks had their turn (and where the picture is no
/// longer wanted, it stops here).
pub(crate) async fn next_piece() {
    #[cfg(not(target_arch = "wasm32"))]
    bevy::tasks::futures_lite::future::yield_now().await;
    #[cfg(target_arch = "wasm32")]
    {
        let Ok(channel) = web_sys::MessageChannel::new() else {
            return;
        };
        let posted = js_sys::Promise::new(&mut |resolve, _| {
            channel.port1().set_onmessage(Some(&resolve));
            if channel
                .port2()
                .post_message(&wasm_bindgen::JsValue::UNDEFINED)
                .is_err()
            {
                let _ = resolve.call0(&wasm_bindgen::JsValue::UNDEFINED);
            }
        });
        let _ = wasm_bindgen_futures::JsFuture::from(posted).await;
    }
}

/// The pieces a picture is drawn in, and the picture: `picture` polled until it is done, each
/// time it gives the thread back a piece more (a test's: the desktop's pieces are the page's).
#[cfg(test)]
pub(crate) fn pieces_of<T>(picture: impl std::future::Future<Output = T>) -> (usize, T) {
    use std::task::{Context, Poll};
    let mut picture = std::pin::pin!(picture);
    let mut cx = Context::from_waker(std::task::Waker::noop());
    let mut pieces = 1;
    loop {
        match picture.as_mut().poll(&mut cx) {
            Poll::Ready(done) => return (pieces, done),
            Poll::Pending => pieces += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picture_gives_the_thread_back_between_pieces() {
        let picture = async {
            let mut sum = 0;
            for k in 1..=5 {
                sum += k;
                next_piece().await;
            }
            sum
        };
        assert_eq!(pieces_of(picture), (6, 15));
    }

    /// A picture of several pieces is drawn whole, off the thread that asked for it, and is
    /// taken once.
    #[test]
    fn a_picture_is_drawn_in_pieces_and_taken_once() {
        let asker = std::thread::current().id();
        let mut painting = Painting::start(&Waker::default(), async move {
            let mut rows = Vec::new();
            for row in 0..8u32 {
                rows.push((row, std::thread::current().id()));
                next_piece().await;
            }
            rows
        });
        let rows = loop {
            if let Some(rows) = painting.take() {
                break rows;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        };
        assert_eq!(
            rows.iter().map(|(row, _)| *row).collect::<Vec<_>>(),
            (0..8).collect::<Vec<_>>()
        );
        assert!(rows.iter().all(|(_, thread)| *thread != asker));
        assert!(painting.take().is_none(), "taken once");
    }
}
