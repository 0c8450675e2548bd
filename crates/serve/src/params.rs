//! Reading a request: the query string's parameters and a POST's JSON body, each refused with
//! a 400 that names what is wrong (an unknown parameter is an error, not ignored).

use std::collections::HashMap;

use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::Query;
use axum::http::StatusCode;

use crate::errors::{ApiError, ApiResult};

/// The query parameters, or a 400 naming what is wrong with them.
pub type Params = Result<Query<HashMap<String, String>>, QueryRejection>;

/// A request body, or why it could not be read.
pub type BodyBytes = Result<axum::body::Bytes, BytesRejection>;

/// The query's parameters, by name.
pub fn params(p: Params) -> ApiResult<HashMap<String, String>> {
    p.map(|Query(q)| q)
        .map_err(|e| ApiError::bad(format!("bad query string: {}", e.body_text())))
}

/// A required parameter.
pub fn required<'a>(q: &'a HashMap<String, String>, name: &str) -> ApiResult<&'a str> {
    q.get(name)
        .map(String::as_str)
        .ok_or_else(|| ApiError::bad(format!("missing parameter '{name}'")))
}

/// A boolean parameter: absent, `true`/`false`, `1`/`0`.
pub fn flag(q: &HashMap<String, String>, name: &str) -> ApiResult<bool> {
    flag_text(name, q.get(name).map(String::as_str))
}

/// A boolean's text: absent or empty (false), `true`/`false`, `1`/`0`.
pub fn flag_text(name: &str, text: Option<&str>) -> ApiResult<bool> {
    match text {
        None | Some("false") | Some("0") | Some("") => Ok(false),
        Some("true") | Some("1") => Ok(true),
        Some(v) => Err(ApiError::bad(format!(
            "parameter '{name}' must be true or false, not {}",
            grundy::text::quote(v)
        ))),
    }
}

/// A list parameter: items separated by commas (or spaces).
pub fn list(text: &str) -> Vec<&str> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect()
}

/// Parameters only these names may be given (a typo is an error, not silently ignored).
pub fn only(q: &HashMap<String, String>, allowed: &[&str]) -> ApiResult<()> {
    match q.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(ApiError::bad(format!(
            "unknown parameter {} (this endpoint takes {})",
            grundy::text::quote(k),
            allowed.join(", ")
        ))),
        None => Ok(()),
    }
}

/// A count parameter in the library's grammar (`1e5`, `2^16`), if given.
pub fn count(q: &HashMap<String, String>, name: &str) -> ApiResult<Option<u64>> {
    q.get(name)
        .map(|t| grundy::input::parse_count(t).map_err(|e| ApiError::bad(format!("{name}: {e}"))))
        .transpose()
}

/// A POST body read as a JSON object of `T`; `expected` names its fields for the error.
pub fn json_body<T: serde::de::DeserializeOwned>(body: BodyBytes, expected: &str) -> ApiResult<T> {
    let body = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "request body too large")
        } else {
            ApiError::bad(format!("bad body: {}", e.body_text()))
        }
    })?;
    serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad(format!("bad JSON (expected {expected}): {e}")))
}

/// A JSON value given for a game's param in a POST body, as the text the query string would
/// carry: a string as it is, a number or a boolean as written; anything else is refused.
pub fn setting_text(name: &str, v: &serde_json::Value) -> ApiResult<String> {
    match v {
        serde_json::Value::String(s) => Ok(s.clone()),
        serde_json::Value::Number(n) => Ok(n.to_string()),
        serde_json::Value::Bool(b) => Ok(b.to_string()),
        _ => Err(ApiError::bad(format!(
            "'{name}' must be a string, a number or true/false"
        ))),
    }
}

/// The key of a query for the pools' memory of expensive questions
/// ([`crate::pools::key`]): the endpoint and every parameter, in order of name.
pub fn query_key(endpoint: &str, q: &HashMap<String, String>) -> u64 {
    let mut pairs: Vec<(&String, &String)> = q.iter().collect();
    pairs.sort();
    crate::pools::key(&(endpoint, pairs))
}
