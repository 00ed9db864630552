//! Which responses a browser or a shared cache may keep. A response that carries an edit key
//! (in a cookie it sets, in its body, or in a confirmation form) is never stored anywhere; a
//! page that depends on the keys this browser holds is kept by this browser only. (The static
//! files, the browser bundle among them, carry their own policy: `routes::router`.)

use axum::extract::Request;
use axum::http::{header, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::Response;

/// Whether the response to `method` `path` may carry an edit key even without setting a cookie:
/// the edit link's confirmation page and the API's answer to a create.
fn carries_key(method: &Method, path: &str) -> bool {
    (path.starts_with("/d/") && path.ends_with("/claim"))
        || (method == Method::POST && path == "/api/designs")
}

/// Whether the page at `path` shows what this browser may do (its designs, its edit rights).
fn per_browser(path: &str) -> bool {
    path == "/designs"
        || (path.starts_with("/d/")
            && (path.ends_with("/edit")
                || path.ends_with("/duplicate")
                || path.ends_with("/search/open")
                || path.ends_with("/baselines")))
}

pub async fn cache_policy(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    let policy = if headers.contains_key(header::SET_COOKIE) || carries_key(&method, &path) {
        Some("no-store")
    } else if per_browser(&path) {
        Some("private, no-cache")
    } else {
        None
    };
    if let Some(policy) = policy {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
    }
    response
}
