#ifndef VITRINE_TOML_SHIM_H
#define VITRINE_TOML_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// A TOML document parsed by toml++ and handed to Swift as a flat array of nodes in document order
// (each table or array is followed by its children, each with its own subtree). One call frees
// everything the parse allocated, so reading a config leaks nothing, however often it is reloaded.
// No C++ type crosses this header.

typedef enum vt_toml_kind {
    VT_TOML_TABLE,
    VT_TOML_ARRAY,
    VT_TOML_STRING,
    VT_TOML_INTEGER,
    VT_TOML_FLOAT,
    VT_TOML_BOOLEAN,
    VT_TOML_DATE,
    VT_TOML_TIME,
    VT_TOML_DATE_TIME,
} vt_toml_kind;

typedef struct vt_toml_node {
    vt_toml_kind kind;
    const char *key;     // the node's key in its table (UTF-8, may hold NUL); NULL in an array
    size_t key_length;
    size_t children;     // tables and arrays: how many direct children follow
    int64_t integer;     // VT_TOML_INTEGER
    double number;       // VT_TOML_FLOAT
    bool boolean;        // VT_TOML_BOOLEAN
    const char *text;    // VT_TOML_STRING (may hold NUL); dates and times as TOML writes them
    size_t text_length;
    uint32_t line, column; // where the value begins (a table: its `[header]`), 1-based
    uint32_t key_line, key_column; // where the key begins (a dotted key: its last part); 0 in an array
} vt_toml_node;

typedef struct vt_toml_document {
    const vt_toml_node *nodes; // nodes[0] is the root table
    size_t count;
    const char *error;         // non-NULL when parsing failed; then nodes is NULL
    uint32_t error_line, error_column;
    void *storage;             // owned by the shim
} vt_toml_document;

// Parses `length` bytes of `text`. Always fills `document`; free it with vt_toml_free.
void vt_toml_parse(const char *text, size_t length, vt_toml_document *document);

void vt_toml_free(vt_toml_document *document);

#ifdef __cplusplus
}
#endif

#endif
