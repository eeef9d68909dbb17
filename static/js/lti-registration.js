// LTI Dynamic Registration: once Numberdeck is registered, tell the learning platform that
// opened this page (in a frame of its own page, or a new window) that it may close it.
(function () {
  "use strict";
  var script = document.currentScript;
  var origin = script && script.dataset.platformOrigin;
  var platform = window.opener || (window.parent !== window ? window.parent : null);
  if (platform && origin) {
    platform.postMessage({ subject: "org.imsglobal.lti.close" }, origin);
  }
})();
