//! How connections are accepted and how long they may stay: the server's defence against
//! clients that open connections and send nothing.
//!
//! - A connection must start a request within the header timeout of opening (HTTP/1 or
//!   HTTP/2: a connection that sends nothing, or only the HTTP/2 preface, is closed), and
//!   whenever it has no request in flight (the previous response sent to its last byte) it must
//!   start the next one within the same time: an idle keep-alive connection is closed.
//! - HTTP/1 request headers must arrive whole within the header timeout (hyper's own timer).
//! - At most `max_open` connections are open at once, and at most `max_per_client` from one
//!   client address (an IPv6 client by its /64); a trusted reverse proxy is not limited per
//!   client, since it carries everyone's connections. Beyond a client's share its new
//!   connections are closed at once, so one client cannot take every slot from the others.

use crate::middleware::client::TrustedProxies;
use axum::body::Body;
use axum::http::{Request, Response};
use http_body_util::BodyExt;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;

/// How long connections still open at shutdown may take to finish their requests.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// The accept loop's settings.
pub struct Connections {
    /// Time to start a request on a connection with none in flight, and to send its headers.
    pub header_timeout: Duration,
    pub max_open: usize,
    pub max_per_client: usize,
    pub trusted_proxies: TrustedProxies,
}

/// What the watchdog of one connection knows: requests in flight (until their response body is
/// sent or dropped) and when the last one started or ended, in milliseconds since it opened.
struct Activity {
    opened: Instant,
    in_flight: AtomicUsize,
    last_ms: AtomicU64,
}

impl Activity {
    fn new() -> Arc<Activity> {
        Arc::new(Activity {
            opened: Instant::now(),
            in_flight: AtomicUsize::new(0),
            last_ms: AtomicU64::new(0),
        })
    }

    fn touch(&self) {
        let ms = self.opened.elapsed().as_millis() as u64;
        self.last_ms.fetch_max(ms, Ordering::SeqCst);
    }

    fn begin(self: &Arc<Self>) -> InFlight {
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        self.touch();
        InFlight(self.clone())
    }

    /// When the connection is idle past `timeout` if nothing happens meanwhile; `None` while a
    /// request is in flight.
    fn idle_deadline(&self, timeout: Duration) -> Option<Instant> {
        if self.in_flight.load(Ordering::SeqCst) > 0 {
            return None;
        }
        let last = Duration::from_millis(self.last_ms.load(Ordering::SeqCst));
        Some(self.opened + last + timeout)
    }
}

/// One request in flight; dropped with its response body.
struct InFlight(Arc<Activity>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.touch();
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Connections open per client address.
#[derive(Default)]
struct PerClient(Mutex<HashMap<IpAddr, usize>>);

impl PerClient {
    /// A slot for one more connection of `client`, unless it has `max` open.
    fn take(self: &Arc<Self>, client: IpAddr, max: usize) -> Option<ClientSlot> {
        let mut open = self.0.lock().ok()?;
        let count = open.entry(client).or_insert(0);
        if *count >= max {
            return None;
        }
        *count += 1;
        Some(ClientSlot(self.clone(), client))
    }
}

struct ClientSlot(Arc<PerClient>, IpAddr);

impl Drop for ClientSlot {
    fn drop(&mut self) {
        if let Ok(mut open) = self.0 .0.lock() {
            if let Some(count) = open.get_mut(&self.1) {
                *count -= 1;
                if *count == 0 {
                    open.remove(&self.1);
                }
            }
        }
    }
}

impl Connections {
    pub async fn serve(
        self,
        listener: tokio::net::TcpListener,
        app: axum::Router,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
        use hyper_util::server::conn::auto::Builder;
        let mut builder = Builder::new(TokioExecutor::new());
        builder
            .http1()
            .timer(TokioTimer::new())
            .header_read_timeout(self.header_timeout);
        let open = Arc::new(tokio::sync::Semaphore::new(self.max_open));
        let per_client = Arc::new(PerClient::default());
        let graceful = hyper_util::server::graceful::GracefulShutdown::new();
        tokio::pin!(shutdown);
        loop {
            let Ok(permit) = open.clone().acquire_owned().await else {
                break;
            };
            let (stream, peer) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(error) => {
                        // Out of file descriptors and the like: wait rather than spin.
                        tracing::warn!(%error, "accepting a connection failed");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                },
                () = &mut shutdown => break,
            };
            let slot = if self.trusted_proxies.trusts(peer.ip()) {
                None
            } else {
                let client = crate::middleware::client::bucket(peer.ip());
                match per_client.take(client, self.max_per_client) {
                    Some(slot) => Some(slot),
                    // Over its share: closed unread.
                    None => continue,
                }
            };
            let activity = Activity::new();
            let service = hyper_util::service::TowerToHyperService::new(Tracked {
                app: app.clone(),
                activity: activity.clone(),
                peer,
            });
            let connection = builder
                .serve_connection_with_upgrades(TokioIo::new(stream), service)
                .into_owned();
            let connection = graceful.watch(connection);
            let timeout = self.header_timeout;
            tokio::spawn(async move {
                tokio::pin!(connection);
                loop {
                    let idle = activity.idle_deadline(timeout);
                    tokio::select! {
                        _ = &mut connection => break,
                        () = sleep_until(idle) => {
                            // Still idle once the deadline has passed: closed by dropping it.
                            if activity
                                .idle_deadline(timeout)
                                .is_some_and(|d| d <= Instant::now())
                            {
                                break;
                            }
                        }
                    }
                }
                drop(slot);
                drop(permit);
            });
        }
        drop(listener);
        if tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown())
            .await
            .is_err()
        {
            tracing::warn!("connections still open after the shutdown grace period");
        }
        Ok(())
    }
}

/// Sleeps until `deadline`; with none (a request in flight), checks again in a second.
async fn sleep_until(deadline: Option<Instant>) {
    let deadline = deadline.unwrap_or_else(|| Instant::now() + Duration::from_secs(1));
    tokio::time::sleep_until(deadline).await;
}

/// The application as one connection serves it: each request carries its peer's address, and
/// counts as in flight until its response body has been sent (or dropped).
#[derive(Clone)]
struct Tracked {
    app: axum::Router,
    activity: Arc<Activity>,
    peer: std::net::SocketAddr,
}

impl tower::Service<Request<hyper::body::Incoming>> for Tracked {
    type Response = Response<Body>;
    type Error = std::convert::Infallible;
    type Future = std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<Response<Body>, Self::Error>> + Send>,
    >;

    fn poll_ready(
        &mut self,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        // The router is always ready.
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: Request<hyper::body::Incoming>) -> Self::Future {
        use tower::ServiceExt;
        let in_flight = self.activity.begin();
        request
            .extensions_mut()
            .insert(axum::extract::ConnectInfo(self.peer));
        let answer = self.app.clone().oneshot(request.map(Body::new));
        Box::pin(async move {
            let response = answer.await?;
            Ok(response.map(move |body| {
                Body::new(body.map_frame(move |frame| {
                    let _ = &in_flight;
                    frame
                }))
            }))
        })
    }
}
