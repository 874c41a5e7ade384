//! `pegsol`: maps the outcome of [`pegsol::cli::run`] to an exit code. Errors are one line
//! on stderr.

fn main() {
    let code = match pegsol::cli::run(std::env::args_os()) {
        Ok(code) => code,
        Err(e) => {
            // One write, so that the line reaches a pipe whole.
            let line = format!("pegsol: {e}\n");
            let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
            e.exit_code()
        }
    };
    std::process::exit(code);
}
