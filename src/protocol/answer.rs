//! Formatting answers.

use crate::search::Info;

/// `info depth .. [multipv ..] score .. nodes .. nps .. time .. pv ..`.
pub fn info(info: &Info) -> String {
    let multipv = info
        .multipv
        .map(|i| format!(" multipv {i}"))
        .unwrap_or_default();
    let mut line = format!(
        "info depth {}{multipv} score {} nodes {} nps {} time {}",
        info.depth,
        info.score,
        info.nodes,
        info.nps(),
        info.time_ms
    );
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&info.pv.join(" "));
    }
    line
}

/// `bestmove <move>...`, or `bestmove none` when there is no legal move.
pub fn bestmove(pv: &[String]) -> String {
    if pv.is_empty() {
        "bestmove none".to_string()
    } else {
        format!("bestmove {}", pv.join(" "))
    }
}

/// `error <message>`, on a single line whatever the message holds.
pub fn error(message: &str) -> String {
    format!("error {}", message.replace(['\n', '\r'], " "))
}

/// `info string <text>`.
pub fn info_string(text: &str) -> String {
    format!("info string {}", text.replace(['\n', '\r'], " "))
}
