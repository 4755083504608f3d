'use strict';
// A PostHog client that sends nothing (see package.json): Artillery's telemetry module calls these two methods only.
class PostHog {
  capture() {}
  async shutdownAsync() {}
}
module.exports = { PostHog };
