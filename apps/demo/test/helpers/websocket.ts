// The WebSocket test helper of @api/ws, used from its folder until it moves into @api/testing
// (as `TestClient.websocket(path, options)`).
export * from '../../../../packages/ws/testing-helper/websocket-session';
