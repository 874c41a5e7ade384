//! The terminal of `pegsol play`: raw mode, the alternate screen and the mouse, set up
//! for the game and always given back (on quitting, on an error, on Ctrl-C or SIGTERM,
//! and on a panic, whose hook restores the terminal before the message is printed).

use super::app::App;
use crate::error::{Error, Result};
use ratatui::crossterm::{
    cursor, event, execute,
    terminal::{self, EnterAlternateScreen, LeaveAlternateScreen},
};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Gives the terminal back when dropped.
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        restore();
    }
}

fn restore() {
    let _ = terminal::disable_raw_mode();
    let _ = execute!(
        std::io::stdout(),
        event::DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    );
}

fn failed(e: std::io::Error) -> Error {
    Error::input(format!("the terminal failed: {e}"))
}

/// Plays `app` in the terminal until the player quits (or SIGTERM, SIGHUP).
pub(super) fn play(app: &mut App) -> Result<()> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        hook(info);
    }));
    // In raw mode Ctrl-C is a key; a signal from elsewhere (SIGTERM, SIGHUP) ends the game
    // as quitting does. Should the loop not get there within a second (crossterm waiting
    // on a terminal that hung up), the handler gives the terminal back and exits itself.
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || {
        flag.store(true, Ordering::SeqCst);
        std::thread::sleep(Duration::from_secs(1));
        restore();
        std::process::exit(130);
    });
    terminal::enable_raw_mode().map_err(failed)?;
    let _restore = Restore;
    execute!(
        std::io::stdout(),
        EnterAlternateScreen,
        event::EnableMouseCapture
    )
    .map_err(failed)?;
    let backend = ratatui::backend::CrosstermBackend::new(std::io::stdout());
    let mut term = ratatui::Terminal::new(backend).map_err(failed)?;
    term.clear().map_err(failed)?;
    while !app.quit && !stop.load(Ordering::SeqCst) {
        term.draw(|f| app.draw(f)).map_err(failed)?;
        if event::poll(Duration::from_millis(100)).map_err(failed)? {
            match event::read().map_err(failed)? {
                event::Event::Key(k) if k.kind != event::KeyEventKind::Release => app.key(k),
                event::Event::Mouse(m) => app.mouse(m),
                _ => {}
            }
        }
    }
    Ok(())
}
