//! The connection guard: request heads too large for the server, answered in JSON.
//!
//! hyper answers a request line longer than 64 KiB `414 URI Too Long` and a head too large
//! `431` by itself, with an empty body, before the router sees the request: no layer can make
//! those answers JSON. So each connection is read through [`Guarded`], which holds a request's
//! head back until it is complete (the line ending in an empty line) and measures it: a request
//! line longer than [`Limits::line`] or a head longer than [`Limits::head`] (or with more headers
//! than hyper takes) is never handed to hyper; hyper reads a stand-in head instead, `GET
//! /.refused/414` (or `/431`) with `Connection: close`, which the router answers with the JSON
//! error ([`refused`]), and the rest of what the client sends on that connection is read and
//! dropped. Bodies pass through as they come, counted by their `Content-Length` so that the next
//! head is found; a connection that sends `Transfer-Encoding` is passed through from then on
//! (hyper's own limits apply to it).

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use axum::http::StatusCode;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

use crate::errors::ApiError;

/// The path of the stand-in request for a refused head; the status follows it.
pub const REFUSED: &str = "/.refused/";

/// The most headers a head may have: hyper refuses more than 100 with an empty 400.
const MAX_HEADERS: usize = 96;

/// How large a request head may be.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The longest request line (method, URI and version), in bytes.
    pub line: usize,
    /// The longest head (request line and headers), in bytes.
    pub head: usize,
}

/// A listener whose connections are [`Guarded`].
pub struct GuardedListener {
    inner: TcpListener,
    limits: Limits,
}

impl GuardedListener {
    /// Guards the connections `inner` accepts with `limits`.
    pub fn new(inner: TcpListener, limits: Limits) -> Self {
        GuardedListener { inner, limits }
    }
}

impl axum::serve::Listener for GuardedListener {
    type Io = Guarded<TcpStream>;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let (io, addr) = axum::serve::Listener::accept(&mut self.inner).await;
        (Guarded::new(io, self.limits), addr)
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.inner.local_addr()
    }
}

/// Where a connection's reader is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Reading a request head (held back until complete).
    Head,
    /// Passing this many more bytes of a body.
    Body(u64),
    /// Passing everything from now on (a body whose end the guard does not track).
    Through,
    /// The head was refused: the stand-in was handed over; the rest is dropped.
    Refused,
}

/// A connection read through the guard (see the module's text); writes go straight through.
pub struct Guarded<S> {
    inner: S,
    limits: Limits,
    state: State,
    /// Bytes read from the client and not yet looked at.
    input: Vec<u8>,
    /// Bytes for hyper, from `out[at..]`.
    out: Vec<u8>,
    at: usize,
}

impl<S> Guarded<S> {
    /// `inner`, guarded with `limits`.
    pub fn new(inner: S, limits: Limits) -> Self {
        Guarded {
            inner,
            limits,
            state: State::Head,
            input: Vec::new(),
            out: Vec::new(),
            at: 0,
        }
    }

    /// Moves what is in `input` along as far as the state allows: complete heads and body bytes
    /// to `out`. Returns false when more input is needed.
    fn advance(&mut self) -> bool {
        match self.state {
            State::Through => {
                if self.input.is_empty() {
                    return false;
                }
                self.out.append(&mut self.input);
                true
            }
            State::Refused => {
                self.input.clear();
                false
            }
            State::Body(0) => {
                self.state = State::Head;
                true
            }
            State::Body(left) => {
                if self.input.is_empty() {
                    return false;
                }
                let n = (left.min(self.input.len() as u64)) as usize;
                self.out.extend(self.input.drain(..n));
                self.state = State::Body(left - n as u64);
                true
            }
            State::Head => {
                // Empty lines before a request line are skipped, as hyper does.
                let skip = self
                    .input
                    .iter()
                    .take_while(|&&b| b == b'\r' || b == b'\n')
                    .count();
                self.input.drain(..skip);
                if self.input.is_empty() {
                    return false;
                }
                match measure(&self.input, self.limits) {
                    Head::Incomplete => false,
                    Head::Refused(status) => {
                        self.input.clear();
                        self.out.extend_from_slice(
                            format!(
                                "GET {REFUSED}{} HTTP/1.1\r\nHost: refused\r\nConnection: close\r\n\r\n",
                                status.as_u16()
                            )
                            .as_bytes(),
                        );
                        self.state = State::Refused;
                        true
                    }
                    Head::Complete { len, body } => {
                        self.out.extend(self.input.drain(..len));
                        self.state = match body {
                            Some(n) => State::Body(n),
                            None => State::Through,
                        };
                        true
                    }
                }
            }
        }
    }
}

/// What the guard makes of the bytes of a head read so far.
#[derive(Debug, PartialEq, Eq)]
enum Head {
    /// Not the whole head yet, and within the limits so far.
    Incomplete,
    /// Over a limit: answer with this status.
    Refused(StatusCode),
    /// A whole head of `len` bytes, followed by a body of `body` bytes (`None`: a body whose
    /// end the guard does not track).
    Complete { len: usize, body: Option<u64> },
}

/// Measures the head at the start of `bytes` against `limits`.
fn measure(bytes: &[u8], limits: Limits) -> Head {
    let line_end = bytes.iter().position(|&b| b == b'\n');
    let line = line_end.unwrap_or(bytes.len());
    if line > limits.line {
        return Head::Refused(StatusCode::URI_TOO_LONG);
    }
    // The head ends at the first empty line: "\n\n" or "\n\r\n".
    let end = bytes.windows(2).enumerate().find_map(|(i, w)| match w {
        [b'\n', b'\n'] => Some(i + 2),
        [b'\n', b'\r'] if bytes.get(i + 2) == Some(&b'\n') => Some(i + 3),
        _ => None,
    });
    let Some(len) = end else {
        return if bytes.len() > limits.head {
            Head::Refused(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE)
        } else {
            Head::Incomplete
        };
    };
    if len > limits.head {
        return Head::Refused(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
    }
    let mut headers = 0;
    let mut body = Some(0u64);
    for raw in bytes[..len].split(|&b| b == b'\n').skip(1) {
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if raw.is_empty() {
            continue;
        }
        headers += 1;
        let Some(colon) = raw.iter().position(|&b| b == b':') else {
            continue;
        };
        let name = raw[..colon].trim_ascii();
        let value = raw[colon + 1..].trim_ascii();
        if name.eq_ignore_ascii_case(b"transfer-encoding") {
            body = None;
        } else if name.eq_ignore_ascii_case(b"content-length") && body == Some(0) {
            // One length, in digits; anything else is hyper's to refuse, and passed through.
            body = std::str::from_utf8(value)
                .ok()
                .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|v| v.parse().ok());
        } else if name.eq_ignore_ascii_case(b"content-length") {
            body = None;
        }
    }
    if headers > MAX_HEADERS {
        return Head::Refused(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
    }
    Head::Complete { len, body }
}

impl<S: AsyncRead + Unpin> AsyncRead for Guarded<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        loop {
            if this.at < this.out.len() {
                let n = buf.remaining().min(this.out.len() - this.at);
                buf.put_slice(&this.out[this.at..this.at + n]);
                this.at += n;
                if this.at == this.out.len() {
                    this.out.clear();
                    this.at = 0;
                }
                return Poll::Ready(Ok(()));
            }
            if this.advance() {
                continue;
            }
            // Nothing for hyper yet: read more from the client.
            let mut chunk = [0u8; 8192];
            let mut rb = ReadBuf::new(&mut chunk);
            ready!(Pin::new(&mut this.inner).poll_read(cx, &mut rb))?;
            let got = rb.filled();
            if got.is_empty() {
                return match this.state {
                    // The stand-in is answered; the connection closes after it.
                    State::Refused => Poll::Pending,
                    // The client is done: hyper sees what is left (a partial head) and the end.
                    _ => {
                        if this.input.is_empty() {
                            Poll::Ready(Ok(()))
                        } else {
                            let n = buf.remaining().min(this.input.len());
                            buf.put_slice(&this.input[..n]);
                            this.input.drain(..n);
                            this.state = State::Through;
                            Poll::Ready(Ok(()))
                        }
                    }
                };
            }
            this.input.extend_from_slice(got);
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Guarded<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// The answer to a refused head's stand-in (`GET /.refused/414`, `/431`): the JSON error.
pub fn refused(status: &str, limits: Limits) -> ApiError {
    match status {
        "414" => ApiError::new(
            StatusCode::URI_TOO_LONG,
            format!(
                "URI too long: the request line has more than {} bytes; send a large position \
                 in a POST body (POST /api/analyze, POST /api/play)",
                limits.line
            ),
        ),
        _ => ApiError::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!(
                "request head too large: more than {} bytes or {MAX_HEADERS} headers",
                limits.head
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const L: Limits = Limits {
        line: 100,
        head: 400,
    };

    #[test]
    fn heads_are_measured() {
        assert_eq!(
            measure(b"GET / HTTP/1.1\r\nHost: x\r\n", L),
            Head::Incomplete
        );
        assert_eq!(
            measure(b"GET / HTTP/1.1\r\nHost: x\r\n\r\nrest", L),
            Head::Complete {
                len: 27,
                body: Some(0)
            }
        );
        assert_eq!(
            measure(b"POST / HTTP/1.1\nContent-Length: 12\n\n", L),
            Head::Complete {
                len: 36,
                body: Some(12)
            }
        );
        assert_eq!(
            measure(b"POST / HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n", L),
            Head::Complete {
                len: 47,
                body: None
            }
        );
        let long = format!("GET /{} HTTP/1.1", "x".repeat(200));
        assert_eq!(
            measure(long.as_bytes(), L),
            Head::Refused(StatusCode::URI_TOO_LONG)
        );
        let big = format!("GET / HTTP/1.1\r\n{}", "X-A: b\r\n".repeat(60));
        assert_eq!(
            measure(big.as_bytes(), L),
            Head::Refused(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE)
        );
    }

    /// Two pipelined requests, the first with a body: both heads found, the body passed whole.
    #[test]
    fn bodies_are_skipped_to_the_next_head() {
        let mut g = Guarded::new((), L);
        g.input = b"POST /a HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello\r\nGET /b HTTP/1.1\r\n\r\n"
            .to_vec();
        while g.advance() {}
        assert_eq!(
            g.out,
            b"POST /a HTTP/1.1\r\nContent-Length: 5\r\n\r\nhelloGET /b HTTP/1.1\r\n\r\n".to_vec()
        );
        assert_eq!(g.state, State::Head);
    }
}
