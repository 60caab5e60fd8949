/// `GET /openapi.json`: the remote server's API as an OpenAPI 3.1 document (SPEC §9, §14). This
/// file is where the document is kept, and the server answers with these bytes as they are.
/// `OpenAPIDocumentTests` checks that every route is in it and that the server's answers (status,
/// media type) are the ones it lists; `Tests/EndToEnd/test_remote_openapi.py` runs schemathesis
/// against a live server with it. Errors are one line of text/plain saying why, on every route.
enum OpenAPIDocument {
    static let contentType = "application/json"

    static let bytes: [UInt8] = Array(text.utf8)

    static let text = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "Vitrine remote status and control",
    "version": "1",
    "summary": "The HTTP server of a Vitrine kiosk: its state, metrics, screenshot and a few commands.",
    "description": "Served when `[remote] listen` is set (SPEC §9, §14). `/screenshot` and `/control` need `Authorization: Bearer TOKEN`, the content of `remote.token_file` (read at each request); without a readable, non-empty token file they answer 403 and say why. Every error is one line of `text/plain; charset=utf-8` saying why. A path not listed here answers 404 with the list of endpoints (`NotFound`); a listed path asked with another method answers 405 with an `Allow` header (`MethodNotAllowed`). Every path that answers GET answers HEAD too: the same status and headers (`Content-Length` the GET body's), no body. Limits: a header field of at most 8 KB, 16 KB and 100 fields in all (else 431 or the connection closed), 5 s for a request's head and 10 s for the whole request, at most 8 connections from one address and 64 in all.",
    "license": {"name": "MIT", "identifier": "MIT"}
  },
  "paths": {
    "/": {
      "get": {
        "operationId": "statusPage",
        "summary": "The status page for a browser (a phone's too)",
        "description": "One self-contained HTML page (SPEC §14): the status, the live screenshot and the action buttons once the token is entered. Its Content-Security-Policy header lets it load nothing but its own script and this server's endpoints.",
        "responses": {
          "200": {
            "description": "The page.",
            "headers": {"Content-Security-Policy": {"schema": {"type": "string"}}},
            "content": {"text/html": {"schema": {"type": "string"}}}
          }
        }
      }
    },
    "/openapi.json": {
      "get": {
        "operationId": "openAPIDocument",
        "summary": "This document",
        "responses": {
          "200": {
            "description": "The OpenAPI 3.1 description of this server.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": ["openapi", "info", "paths"],
                  "properties": {"openapi": {"type": "string", "pattern": "^3\\.1\\.[0-9]+$"}}
                }
              }
            }
          }
        }
      }
    },
    "/status": {
      "get": {
        "operationId": "status",
        "summary": "What the kiosk shows and its state",
        "description": "Answered from the snapshot the run loop publishes after each turn; also while the kiosk waits for a display.",
        "responses": {
          "200": {
            "description": "The status.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Status"}}}
          }
        }
      }
    },
    "/metrics": {
      "get": {
        "operationId": "metrics",
        "summary": "Prometheus metrics",
        "description": "The Prometheus text exposition format 0.0.4 (`Content-Type: text/plain; version=0.0.4; charset=utf-8`): vitrine_frames_total, vitrine_frames_dropped_total, vitrine_frame_seconds, vitrine_touch_to_flip_seconds, vitrine_photos, vitrine_photos_shown_total, vitrine_photos_skipped{reason}, vitrine_decoded_bytes, vitrine_display_connected, vitrine_screen_on, vitrine_state{state}, vitrine_touches_total, vitrine_uptime_seconds, vitrine_build_info{version}.",
        "responses": {
          "200": {
            "description": "The metrics.",
            "content": {"text/plain": {"schema": {"type": "string"}}}
          }
        }
      }
    },
    "/screenshot": {
      "get": {
        "operationId": "screenshot",
        "summary": "The frame on screen, as PNG",
        "description": "A copy of the frame the run loop composed last (the scene upright, before `display.rotation`), handed over between two frames.",
        "security": [{"bearer": []}],
        "responses": {
          "200": {
            "description": "The frame, 8-bit RGB.",
            "content": {"image/png": {"schema": {"type": "string", "contentMediaType": "image/png"}}}
          },
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Off"},
          "500": {
            "description": "The frame could not be encoded.",
            "content": {"text/plain": {"schema": {"$ref": "#/components/schemas/Message"}}}
          },
          "503": {
            "description": "No frame: the kiosk waits for a display, has composed none yet, or the run loop did not hand one over within 2 s.",
            "content": {"text/plain": {"schema": {"$ref": "#/components/schemas/Message"}}}
          }
        }
      }
    },
    "/control": {
      "post": {
        "operationId": "control",
        "summary": "Ask the kiosk to do something",
        "description": "The action is checked (the same parsing and checks as MQTT's command topic) and queued for the run loop, which carries it out at its next turn.",
        "security": [{"bearer": []}],
        "requestBody": {
          "required": true,
          "description": "At most 4096 bytes. Other keys are ignored.",
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Action"}}}
        },
        "responses": {
          "202": {
            "description": "Taken: queued for the run loop.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Accepted"}}}
          },
          "400": {
            "description": "Not an action: the body is not a JSON object, has no or an unknown `action`, `open` without an `index`, an `index` that is not an integer or past the last photo.",
            "content": {"text/plain": {"schema": {"$ref": "#/components/schemas/Message"}}}
          },
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Off"},
          "413": {
            "description": "The body is over 4096 bytes.",
            "content": {"text/plain": {"schema": {"$ref": "#/components/schemas/Message"}}}
          },
          "503": {
            "description": "Not now: the kiosk waits for a display (only `reload` is taken then), or 32 actions wait already.",
            "content": {"text/plain": {"schema": {"$ref": "#/components/schemas/Message"}}}
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearer": {
        "type": "http",
        "scheme": "bearer",
        "description": "The content of `remote.token_file`, compared in constant time."
      }
    },
    "schemas": {
      "Message": {
        "type": "string",
        "description": "One line saying why, ending in a newline; what came from the request is quoted at most about 200 bytes."
      },
      "Status": {
        "type": "object",
        "required": ["version", "state", "state_detail", "waiting_for_display", "mode", "current_photo", "clip",
                     "photo_count", "screen_on", "display", "input_devices", "uptime_seconds"],
        "properties": {
          "version": {"type": "string", "description": "Vitrine's version."},
          "state": {
            "enum": ["starting", "waiting_for_display", "showing", "display_off", "closed"],
            "description": "`closed`: the opening hours say so (SPEC §8)."
          },
          "state_detail": {
            "type": ["string", "null"],
            "description": "Why it waits for a display, why the display is off, until when it is closed."
          },
          "waiting_for_display": {"type": "boolean"},
          "mode": {
            "enum": ["grid", "opening", "pager", "dismissing", "closing", "slideshow", null],
            "description": "The scene's mode; null without a display."
          },
          "current_photo": {
            "type": ["object", "null"],
            "description": "The photo shown, or the one last opened in the grid.",
            "required": ["index"],
            "properties": {
              "index": {"type": "integer", "minimum": 0},
              "file": {"type": "string", "description": "Its file name in the photo folder."}
            }
          },
          "clip": {
            "type": ["object", "null"],
            "description": "The current item when it is a clip or a Live Photo (SPEC §12).",
            "required": ["kind", "playing"],
            "properties": {
              "kind": {"enum": ["clip", "live_photo"]},
              "playing": {"type": "boolean", "description": "Its motion plays now."}
            }
          },
          "photo_count": {"type": "integer", "minimum": 0},
          "screen_on": {"type": "boolean"},
          "display": {
            "type": ["object", "null"],
            "required": ["connector", "mode", "connected"],
            "properties": {
              "connector": {"type": "string", "examples": ["HDMI-A-1"]},
              "mode": {"type": "string", "examples": ["1920x1080@60"]},
              "connected": {"type": "boolean", "description": "False while the connector in use is unplugged."}
            }
          },
          "input_devices": {"type": "array", "items": {"type": "string"}},
          "uptime_seconds": {"type": "number", "minimum": 0}
        }
      },
      "Action": {
        "type": "object",
        "required": ["action"],
        "properties": {
          "action": {"enum": ["next", "previous", "open", "close", "screen_off", "screen_on", "reload"]},
          "index": {
            "type": "integer",
            "minimum": 0,
            "description": "For `open`: the photo's index in the grid, below /status's photo_count."
          }
        },
        "if": {"required": ["action"], "properties": {"action": {"const": "open"}}},
        "then": {"required": ["index"]},
        "examples": [{"action": "next"}, {"action": "open", "index": 3}]
      },
      "Accepted": {
        "type": "object",
        "required": ["accepted"],
        "properties": {
          "accepted": {"enum": ["next", "previous", "open", "close", "screen_off", "screen_on", "reload"]}
        }
      }
    },
    "responses": {
      "Unauthorized": {
        "description": "No `Authorization: Bearer TOKEN`, another scheme, or a wrong token.",
        "headers": {"WWW-Authenticate": {"schema": {"const": "Bearer"}}},
        "content": {"text/plain": {"schema": {"$ref": "#/components/schemas/Message"}}}
      },
      "Off": {
        "description": "The endpoint is off: the token file cannot be read, is empty or is not one token on one line.",
        "content": {"text/plain": {"schema": {"$ref": "#/components/schemas/Message"}}}
      },
      "NotFound": {
        "description": "Any path not listed here; the answer lists the endpoints.",
        "content": {"text/plain": {"schema": {"$ref": "#/components/schemas/Message"}}}
      },
      "MethodNotAllowed": {
        "description": "A listed path with another method.",
        "headers": {"Allow": {"schema": {"enum": ["GET, HEAD", "POST"]}}},
        "content": {"text/plain": {"schema": {"$ref": "#/components/schemas/Message"}}}
      }
    }
  }
}
"""#
}
