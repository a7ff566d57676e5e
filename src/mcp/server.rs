//! The protocol: an rmcp server handler over the tools, served on stdin/stdout. Each call
//! runs on a blocking thread; a bad argument or a question without an answer is a tool
//! error (`isError`), and the server keeps serving.

use super::answers::{answer, Answer, ToolError};
use super::served::Served;
use super::tools::{as_object, definitions};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use std::sync::Arc;

/// What the server tells an agent when it connects.
const INSTRUCTIONS: &str = "mo-mem reads snapshots of Motoko canisters' main memory. \
Call `snapshots` for the names of the snapshots served, then `report` for an overview; \
`retained`, `path` and `object` answer what holds memory and why; `vars` and `eval` read \
the stable variables; `diff` compares two snapshots; `call` runs a query method offline.";

/// The MCP server over the served snapshots.
#[derive(Clone)]
pub struct McpServer {
    served: Arc<Served>,
    tools: Arc<Vec<Tool>>,
    structured: Arc<Vec<&'static str>>,
}

impl McpServer {
    /// A server answering about `served`.
    pub fn new(served: Served) -> McpServer {
        let defs = definitions();
        let structured = defs
            .iter()
            .filter(|d| d.output.is_some())
            .map(|d| d.name)
            .collect();
        let tools = defs
            .into_iter()
            .map(|d| {
                let mut tool = Tool::new(d.name, d.description, Arc::new(as_object(&d.input)));
                tool.output_schema = d.output.as_ref().map(|o| Arc::new(as_object(o)));
                tool.annotations = Some(ToolAnnotations::new().read_only(true));
                tool
            })
            .collect();
        McpServer {
            served: Arc::new(served),
            tools: Arc::new(tools),
            structured: Arc::new(structured),
        }
    }

    /// The result of `answer` for the tool `name` as the protocol carries it.
    fn result(&self, name: &str, answer: Result<Answer, ToolError>) -> CallToolResult {
        match answer {
            Ok(a) => {
                let mut content = vec![ContentBlock::text(a.text)];
                content.extend(
                    a.notes
                        .into_iter()
                        .map(|n| ContentBlock::text(format!("note: {n}"))),
                );
                let mut result = CallToolResult::success(content);
                if self.structured.contains(&name) {
                    result.structured_content = Some(a.json);
                }
                result
            }
            Err(e) => CallToolResult::error(vec![ContentBlock::text(e.to_string())]),
        }
    }
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("mo-mem", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.to_string();
        let args = request.arguments.unwrap_or_default();
        let served = self.served.clone();
        let tool = name.clone();
        let answer = tokio::task::spawn_blocking(move || answer(&served, &tool, &args))
            .await
            .unwrap_or_else(|e| Err(ToolError::Failed(format!("the tool failed: {e}"))));
        Ok(self.result(&name, answer).into())
    }
}

/// Serves `served` over stdin and stdout until the client closes the connection.
pub async fn serve_stdio(served: Served) -> std::io::Result<()> {
    let server = McpServer::new(served);
    let running = server
        .serve(rmcp::transport::stdio())
        .await
        .map_err(std::io::Error::other)?;
    running.waiting().await.map_err(std::io::Error::other)?;
    Ok(())
}
