"""The HTTP and websocket edge: the FastAPI app (``app``), the routes by subject (rooms,
seats, alerts, history, site pages, health, metrics), the small HTML pages that mail
links open, and what every route depends on (``deps``). Routes are thin: they parse,
call a use case, and answer the view for the caller's seat."""
