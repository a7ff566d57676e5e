//! A canister's Candid service, read from its module's `candid:service` custom section:
//! its methods with their types, arguments parsed from Candid text and encoded with the
//! method's argument types, replies decoded with its result types and shown as Candid text.

use candid::types::{Function, Type, TypeEnv};
use candid::{DecoderConfig, IDLArgs};
use std::fmt::Write as _;
use wasmparser::{Parser, Payload};

/// The most bytes of Candid text read for a service description or for arguments.
pub const MAX_CANDID_TEXT: usize = 1 << 20;

/// The most value bytes a reply may decode to (Candid's decoding quota, against
/// amplification: a reply of a few bytes that decodes to gigabytes).
const DECODING_QUOTA: usize = 256 << 20;

/// Why a service, an argument or a reply could not be handled.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServiceError {
    /// The module has no `candid:service` section.
    #[error("the module has no candid:service section (not built by moc or dfx?)")]
    NoService,
    /// The module could not be read far enough to find it.
    #[error("cannot read the module: {0}")]
    Module(String),
    /// The service text does not parse or type-check.
    #[error("the module's candid:service does not parse: {0}")]
    BadService(String),
    /// No method of that name.
    #[error("the service has no method {0:?} (see `mo-mem methods`)")]
    NoSuchMethod(String),
    /// The arguments do not parse or do not fit the method's types.
    #[error("arguments of {method}: {reason}")]
    Arguments {
        /// The method.
        method: String,
        /// Why.
        reason: String,
    },
    /// The reply does not decode with the method's result types.
    #[error("the reply of {method} does not decode: {reason}")]
    Reply {
        /// The method.
        method: String,
        /// Why.
        reason: String,
    },
}

/// One method of the service.
#[derive(Debug, Clone)]
pub struct Method {
    /// Its name.
    pub name: String,
    /// Its Candid type, as the service text writes it (`(nat) -> (text) query`).
    pub signature: String,
    /// Whether it is a query (or composite query).
    pub query: bool,
    /// How many arguments it takes.
    pub arity: usize,
}

/// A parsed, type-checked service description.
pub struct Service {
    env: TypeEnv,
    actor: Type,
}

/// The `candid:service` text of a (gunzipped) module.
pub fn service_text(wasm: &[u8]) -> Result<String, ServiceError> {
    for payload in Parser::new(0).parse_all(wasm) {
        let payload = payload.map_err(|e| ServiceError::Module(e.to_string()))?;
        if let Payload::CustomSection(reader) = payload {
            let name = reader.name();
            let service = name
                .strip_prefix("icp:public ")
                .or(name.strip_prefix("icp:private "))
                == Some("candid:service");
            if service {
                if reader.data().len() > MAX_CANDID_TEXT {
                    return Err(ServiceError::BadService(format!(
                        "{} bytes, more than {MAX_CANDID_TEXT}",
                        reader.data().len()
                    )));
                }
                return String::from_utf8(reader.data().to_vec())
                    .map_err(|e| ServiceError::BadService(e.to_string()));
            }
        }
    }
    Err(ServiceError::NoService)
}

impl Service {
    /// The service of a (gunzipped) module.
    pub fn of_module(wasm: &[u8]) -> Result<Service, ServiceError> {
        Service::parse(&service_text(wasm)?)
    }

    /// Parses and type-checks a service description.
    pub fn parse(text: &str) -> Result<Service, ServiceError> {
        let (env, actor) = candid_parser::utils::CandidSource::Text(text)
            .load()
            .map_err(|e| ServiceError::BadService(e.to_string()))?;
        let actor = actor.ok_or_else(|| ServiceError::BadService("no service".into()))?;
        env.as_service(&actor)
            .map_err(|e| ServiceError::BadService(e.to_string()))?;
        Ok(Service { env, actor })
    }

    /// Every method, in the service's order.
    pub fn methods(&self) -> Vec<Method> {
        let Ok(methods) = self.env.as_service(&self.actor) else {
            return Vec::new();
        };
        methods
            .iter()
            .filter_map(|(name, ty)| {
                let f = self.env.as_func(ty).ok()?;
                Some(Method {
                    name: name.clone(),
                    signature: signature(f),
                    query: f.is_query(),
                    arity: f.args.len(),
                })
            })
            .collect()
    }

    fn function(&self, method: &str) -> Result<&Function, ServiceError> {
        let methods = self
            .env
            .as_service(&self.actor)
            .map_err(|e| ServiceError::BadService(e.to_string()))?;
        let (_, ty) = methods
            .iter()
            .find(|(name, _)| name == method)
            .ok_or_else(|| ServiceError::NoSuchMethod(method.to_string()))?;
        self.env
            .as_func(ty)
            .map_err(|e| ServiceError::BadService(e.to_string()))
    }

    /// The method `name`.
    pub fn method(&self, name: &str) -> Result<Method, ServiceError> {
        let f = self.function(name)?;
        Ok(Method {
            name: name.to_string(),
            signature: signature(f),
            query: f.is_query(),
            arity: f.args.len(),
        })
    }

    /// `text` (Candid arguments, `(42, "x")`; empty for none) encoded for `method`.
    pub fn encode_args(&self, method: &str, text: &str) -> Result<Vec<u8>, ServiceError> {
        let f = self.function(method)?;
        let bad = |reason: String| ServiceError::Arguments {
            method: method.to_string(),
            reason,
        };
        if text.len() > MAX_CANDID_TEXT {
            return Err(bad(format!("more than {MAX_CANDID_TEXT} bytes")));
        }
        let text = text.trim();
        let args = if text.is_empty() {
            IDLArgs { args: Vec::new() }
        } else {
            candid_parser::parse_idl_args(text).map_err(|e| bad(e.to_string()))?
        };
        args.to_bytes_with_types(&self.env, &f.args)
            .map_err(|e| bad(e.to_string()))
    }

    /// `text` (Candid arguments; empty for none) encoded with the service's init argument
    /// types (an actor class's parameters; none for a plain actor), as for `install_code`.
    pub fn encode_init_args(&self, text: &str) -> Result<Vec<u8>, ServiceError> {
        let bad = |reason: String| ServiceError::Arguments {
            method: "the init arguments".to_string(),
            reason,
        };
        if text.len() > MAX_CANDID_TEXT {
            return Err(bad(format!("more than {MAX_CANDID_TEXT} bytes")));
        }
        let types = match self.actor.as_ref() {
            candid::types::TypeInner::Class(args, _) => args.clone(),
            _ => Vec::new(),
        };
        let text = text.trim();
        let args = if text.is_empty() {
            IDLArgs { args: Vec::new() }
        } else {
            candid_parser::parse_idl_args(text).map_err(|e| bad(e.to_string()))?
        };
        args.to_bytes_with_types(&self.env, &types)
            .map_err(|e| bad(e.to_string()))
    }

    /// The JSON Schema of `method`'s reply as `mo-mem call --json` prints it.
    pub fn reply_schema(&self, method: &str) -> Result<serde_json::Value, ServiceError> {
        let f = self.function(method)?;
        Ok(super::reply_schema::reply_schema(
            &self.env, method, &f.rets,
        ))
    }

    /// A reply of `method` decoded with its result types.
    pub fn decode_reply(&self, method: &str, bytes: &[u8]) -> Result<IDLArgs, ServiceError> {
        let f = self.function(method)?;
        let mut config = DecoderConfig::new();
        config.set_decoding_quota(DECODING_QUOTA);
        IDLArgs::from_bytes_with_types_with_config(bytes, &self.env, &f.rets, &config).map_err(
            |e| ServiceError::Reply {
                method: method.to_string(),
                reason: e.to_string(),
            },
        )
    }
}

/// `(args) -> (results) query` of a function type.
fn signature(f: &Function) -> String {
    let list = |ts: &[Type]| {
        ts.iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = format!("({}) -> ({})", list(&f.args), list(&f.rets));
    for mode in &f.modes {
        let _ = write!(
            out,
            " {}",
            match mode {
                candid::types::FuncMode::Query => "query",
                candid::types::FuncMode::CompositeQuery => "composite_query",
                candid::types::FuncMode::Oneway => "oneway",
            }
        );
    }
    out
}
