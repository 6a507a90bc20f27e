"""The computer player, its fair queue, the bot processes, background tasks and the analysis runner."""
