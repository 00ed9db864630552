//! What a route costs the server, declared where the route is declared: a write to the store,
//! or a computation (an evaluation, a report, a PDF, a search). A route that costs something
//! carries [`WRITES`] or [`COMPUTES`] as a layer (a server function as its `#[middleware]`);
//! the layer spends the client's [`Allowance`] for that cost, which the server's metering puts
//! in every request, and answers 429 with Retry-After when it is used up. A route without a
//! layer costs nothing, so a new costly route is charged only by saying so where it is made.

use axum::body::Body;
use axum::http::{header, Request, Response, StatusCode};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cost {
    /// It writes to the store: a save, an import, a baseline, an as-built check, a claim.
    Write,
    /// It computes or typesets: the dashboard, evaluation, reports, PDFs, spreadsheets,
    /// hand-off files, searches.
    Compute,
}

impl Cost {
    /// What the refusal says there were too many of.
    fn what(self) -> &'static str {
        match self {
            Cost::Write => "saves",
            Cost::Compute => "reports and evaluations",
        }
    }
}

/// A client's allowance, as the server meters it: spends one `Cost` and says nothing, or says
/// how many seconds to wait when that cost is used up for now.
#[derive(Clone)]
pub struct Allowance(pub Arc<dyn Fn(Cost) -> Option<u64> + Send + Sync>);

/// A layer that charges every request through it one `Cost`.
#[derive(Debug, Clone, Copy)]
pub struct Costs(pub Cost);

pub const WRITES: Costs = Costs(Cost::Write);
pub const COMPUTES: Costs = Costs(Cost::Compute);

impl<S> tower::Layer<S> for Costs {
    type Service = Charged<S>;

    fn layer(&self, inner: S) -> Charged<S> {
        Charged {
            inner,
            cost: self.0,
        }
    }
}

/// A route behind [`Costs`].
#[derive(Clone)]
pub struct Charged<S> {
    inner: S,
    cost: Cost,
}

impl<S> tower::Service<Request<Body>> for Charged<S>
where
    S: tower::Service<Request<Body>, Response = Response<Body>>,
    S::Future: Send + 'static,
{
    type Response = Response<Body>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let wait = request
            .extensions()
            .get::<Allowance>()
            .and_then(|allowance| (allowance.0)(self.cost));
        match wait {
            Some(seconds) => {
                let refused = too_many(self.cost, seconds);
                Box::pin(async move { Ok(refused) })
            }
            None => Box::pin(self.inner.call(request)),
        }
    }
}

/// 429, with Retry-After and a JSON body like every other refusal.
fn too_many(cost: Cost, seconds: u64) -> Response<Body> {
    let body = crate::error::AppError::TooManyRequests(format!(
        "too many {} from this address: try again in {seconds} s",
        cost.what()
    ));
    let body = serde_json::to_string(&body).unwrap_or_default();
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = StatusCode::TOO_MANY_REQUESTS;
    let headers = response.headers_mut();
    headers.insert(header::RETRY_AFTER, seconds.into());
    headers.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    response
}
