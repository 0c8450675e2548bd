//! Every error answer, as one JSON line: [`ApiError`] (a status and a message, sent as
//! `{"error": "…"}`), the status of each library error kind, and the outermost layer that turns
//! any answer that is not JSON yet (a 413 from the body limit, a caught panic, the fallbacks)
//! into one.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// An error answer: a status and one line, sent as `{"error": "..."}`.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The message.
    pub message: String,
    /// The line of a script the error is at (`POST /api/script`), sent as `"line"`.
    pub line: Option<usize>,
    /// True when the work stopped because it outgrew what its attempt allowed (the stop flag,
    /// a budget cap): the scheduler ([`crate::pools`]) runs a cheap attempt that outgrew its
    /// budget again on the expensive pool, with the full budget.
    pub outgrew: bool,
}

impl ApiError {
    /// An error with this status and message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
            line: None,
            outgrew: false,
        }
    }

    /// Bad input: 400.
    pub fn bad(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// A limit of the server (a size, a count, the time budget): 422.
    pub fn limit(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// Every worker of the pool busy: 503, with `Retry-After: 1`.
    pub fn busy() -> Self {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy: every worker is computing; try again",
        )
    }

    /// A failure of the server itself: 500.
    pub fn internal(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }

    /// The same error, marked as work that outgrew its attempt's budget.
    pub fn outgrown(mut self) -> Self {
        self.outgrew = true;
        self
    }

    /// True for a limit (422): the answer of work past a budget.
    pub fn is_limit(&self) -> bool {
        self.status == StatusCode::UNPROCESSABLE_ENTITY
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        // One line, whatever the library said.
        let message = self.message.replace(['\n', '\r'], " ");
        let body = match self.line {
            Some(line) => serde_json::json!({ "error": message, "line": line }),
            None => serde_json::json!({ "error": message }),
        }
        .to_string();
        let mut r = (self.status, body).into_response();
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        r
    }
}

/// The status of a library error's kind: bad input 400, a limit or a stop (the time budget)
/// 422, a failure 500.
pub fn status_of(kind: grundy::ErrorKind) -> StatusCode {
    match kind {
        grundy::ErrorKind::Input => StatusCode::BAD_REQUEST,
        grundy::ErrorKind::Limit | grundy::ErrorKind::Stopped => StatusCode::UNPROCESSABLE_ENTITY,
        grundy::ErrorKind::Failure => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<grundy::Error> for ApiError {
    fn from(e: grundy::Error) -> Self {
        let kind = e.kind();
        ApiError {
            status: status_of(kind),
            // A stop here is always the server's: the time budget, or a cheap attempt's end.
            message: match kind {
                grundy::ErrorKind::Stopped => "time budget exceeded".to_string(),
                _ => e.to_string(),
            },
            line: e.line(),
            // A stop, or a cap of a budget the server sets (positions, bytes, script steps and
            // memory): the work outgrew its attempt. A limit without a parameter is the input's
            // own size, the same in every attempt.
            outgrew: kind == grundy::ErrorKind::Stopped
                || (kind == grundy::ErrorKind::Limit && e.parameter().is_some()),
        }
    }
}

impl From<grundy::catalogue::Error> for ApiError {
    fn from(e: grundy::catalogue::Error) -> Self {
        grundy::Error::from(e).into()
    }
}

impl From<grundy::play::PlayError> for ApiError {
    fn from(e: grundy::play::PlayError) -> Self {
        grundy::Error::from(e).into()
    }
}

impl From<grundy::penney::PenneyError> for ApiError {
    fn from(e: grundy::penney::PenneyError) -> Self {
        grundy::Error::from(e).into()
    }
}

impl From<grundy::script::ScriptError> for ApiError {
    fn from(e: grundy::script::ScriptError) -> Self {
        grundy::Error::from(e).into()
    }
}

/// Results of handlers and of the work they hand to the pools.
pub type ApiResult<T> = Result<T, ApiError>;

/// The fallback of the router: no such endpoint, 404.
pub async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such endpoint (see /api/health and docs/json.md)",
    )
}

/// The fallback of a route asked with a method it does not take: 405.
pub async fn wrong_method() -> ApiError {
    ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "method not allowed")
}

/// Turns any error answer that is not JSON yet (a body too large, a panic) into
/// `{"error": "..."}` with the same status.
pub async fn json_errors(r: Response) -> Response {
    let status = r.status();
    let is_json = r
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if (status.is_client_error() || status.is_server_error()) && !is_json {
        let message = match status {
            StatusCode::PAYLOAD_TOO_LARGE => "request body too large".to_string(),
            s => s.canonical_reason().unwrap_or("error").to_ascii_lowercase(),
        };
        return ApiError::new(status, message).into_response();
    }
    r
}
