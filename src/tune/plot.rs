//! The tuning run as one self-contained HTML page: each parameter's θ over the iterations
//! (with the two points each iteration played), and the running sum of the results. Plain SVG,
//! no script, so the page opens anywhere.

use std::fmt::Write as _;

use super::spsa::ParamSpec;
use super::TuneState;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 180.0;
const MARGIN: f64 = 44.0;

/// Text for HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// An SVG polyline's points: `x` is the iteration (0..=iterations), `y` a value in `low..=high`.
fn points(values: impl Iterator<Item = (usize, f64)>, iterations: usize, low: f64, high: f64) -> String {
    let plot_width = WIDTH - 2.0 * MARGIN;
    let plot_height = HEIGHT - 2.0 * MARGIN / 2.0;
    let span = if high > low { high - low } else { 1.0 };
    let mut text = String::new();
    for (x, y) in values {
        let px = MARGIN + plot_width * x as f64 / iterations.max(1) as f64;
        let py = MARGIN / 2.0 + plot_height * (1.0 - (y - low) / span);
        let _ = write!(text, "{px:.1},{py:.1} ");
    }
    text.trim_end().to_string()
}

/// One chart: the axes with their labels and the given polylines (class, points).
fn chart(title: &str, low: f64, high: f64, iterations: usize, lines: &[(&str, String)]) -> String {
    let bottom = HEIGHT - MARGIN / 2.0;
    let right = WIDTH - MARGIN;
    let mut svg = format!(
        "<figure><figcaption>{}</figcaption><svg viewBox=\"0 0 {WIDTH} {HEIGHT}\" width=\"{WIDTH}\" height=\"{HEIGHT}\">\
         <rect class=\"frame\" x=\"{MARGIN}\" y=\"{top}\" width=\"{w}\" height=\"{h}\"/>\
         <text x=\"{lx}\" y=\"{top}\" dy=\"0.8em\">{high}</text><text x=\"{lx}\" y=\"{bottom}\">{low}</text>\
         <text x=\"{MARGIN}\" y=\"{HEIGHT}\" dy=\"-0.2em\">0</text>\
         <text x=\"{right}\" y=\"{HEIGHT}\" dy=\"-0.2em\" text-anchor=\"end\">{iterations}</text>",
        escape(title),
        top = MARGIN / 2.0,
        w = right - MARGIN,
        h = bottom - MARGIN / 2.0,
        lx = MARGIN - 4.0,
    );
    for (class, points) in lines {
        let _ = write!(svg, "<polyline class=\"{class}\" points=\"{points}\"/>");
    }
    svg.push_str("</svg></figure>\n");
    svg
}

fn parameter_chart(state: &TuneState, index: usize, p: &ParamSpec) -> String {
    let n = state.run.gains.iterations;
    let theta = std::iter::once((0, p.start)).chain(state.history.iter().map(|it| (it.k, it.theta[index])));
    let probe = |plus: bool| {
        let line = state.history.iter().map(move |it| (it.k, if plus { it.plus[index] } else { it.minus[index] }));
        points(line, n, p.min, p.max)
    };
    let start = points([(0, p.start), (n, p.start)].into_iter(), n, p.min, p.max);
    let now = state.theta[index];
    let z = state.direction_z()[index];
    let title = format!("{}: start {}, θ {:.4} ({} now), z {z:+.2}", p.name, p.start, now, p.flag_value(now));
    let lines =
        [("start", start), ("probe", probe(true)), ("probe", probe(false)), ("theta", points(theta, n, p.min, p.max))];
    chart(&title, p.min, p.max, n, &lines)
}

fn result_chart(state: &TuneState) -> String {
    let n = state.run.gains.iterations;
    let mut sum = 0.0;
    let mut running = vec![(0, 0.0)];
    for it in &state.history {
        sum += it.result;
        running.push((it.k, sum));
    }
    let low = running.iter().map(|&(_, s)| s).fold(0.0, f64::min).floor();
    let high = running.iter().map(|&(_, s)| s).fold(0.0, f64::max).ceil();
    let title = "the running sum of the results (θ⁺'s wins − losses against θ⁻; a random walk where no \
                 parameter matters)";
    chart(title, low, high, n, &[("theta", points(running.into_iter(), n, low, high))])
}

/// The page.
pub fn page(state: &TuneState) -> String {
    let run = &state.run;
    let games: usize = state.history.iter().map(|i| i.scores.len()).sum();
    let mut html = String::from(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>codevs-reborn tune</title>\n<style>\
         body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}code{background:#f3f3f3;padding:0 .3em}\
         figure{margin:1em 0}figcaption{font-weight:600}svg text{font-size:11px;fill:#555;text-anchor:end}\
         .frame{fill:none;stroke:#bbb}.theta{fill:none;stroke:#1565c0;stroke-width:2}\
         .probe{fill:none;stroke:#90a4ae;stroke-width:0.6}.start{fill:none;stroke:#e53935;stroke-dasharray:4 3}\
         table{border-collapse:collapse}td,th{padding:.2em .8em;text-align:right}th{text-align:left}\
         </style></head><body>\n<h1>Tuning run</h1>\n",
    );
    let _ = writeln!(
        html,
        "<p>{} of {} iterations, {games} games. Bot <code>{}</code>; packs {}; {} ms a game, {} ms a turn; \
         {}. A {}, α {}, γ {}.</p>",
        state.history.len(),
        run.gains.iterations,
        escape(&run.bot),
        escape(&run.packs),
        run.control[0],
        run.control[1],
        if run.pool.is_empty() {
            "θ⁺ against θ⁻".to_string()
        } else {
            format!("against the pool {}", escape(&run.pool.join(", ")))
        },
        run.gains.big_a,
        run.gains.alpha,
        run.gains.gamma,
    );
    let _ = writeln!(html, "<p>Flags now: <code>{}</code></p>", escape(&state.flags(&state.theta)));
    html.push_str("<table><tr><th>parameter</th><th>start</th><th>θ</th><th>min</th><th>max</th><th>c_end</th><th>r_end</th></tr>\n");
    for (p, theta) in run.params.iter().zip(&state.theta) {
        let _ = writeln!(
            html,
            "<tr><th>{}</th><td>{}</td><td>{theta:.4}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&p.name),
            p.start,
            p.min,
            p.max,
            p.c_end,
            p.r_end
        );
    }
    html.push_str(
        "</table>\n<p>Blue: θ after each iteration; grey: the two points each iteration played; red dashes: the \
         start. z = Σ result·Δ / √Σ result² is about standard normal where a parameter does not matter: \
         |z| < 2 says its moves are noise.</p>\n",
    );
    for (i, p) in run.params.iter().enumerate() {
        html.push_str(&parameter_chart(state, i, p));
    }
    html.push_str(&result_chart(state));
    html.push_str("</body></html>\n");
    html
}
