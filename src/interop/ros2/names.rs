//! How rmw_zenoh names things on Zenoh, so ROS 2 nodes using it (Jazzy and later) find and
//! read treadsim's topics: the data key expression of a topic, the liveliness tokens that put
//! a node and its publishers and subscriptions in the ROS graph (`ros2 node list`, `ros2 topic
//! list`), the QoS as a token writes it, and the attachment every sample carries. Followed:
//! `docs/design.md` and `rmw_zenoh_cpp/src/detail/liveliness_utils.cpp` (`TopicInfo`, the
//! `KeyexprIndex` order, `mangle_name`, `qos_to_keyexpr`), `qos.cpp` (the defaults a token
//! leaves out) and `attachment_helpers.cpp` (`AttachmentData::serialize_to_zbytes`: sequence
//! number, source timestamp, source GID) of `ros2/rmw_zenoh`.

/// The liveliness admin space of ROS 2 entities.
pub const ADMIN_SPACE: &str = "@ros2_lv";

/// What an entity is, as its liveliness token says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntityKind {
    /// A node (`NN`).
    Node,
    /// A publisher (`MP`).
    Publisher,
    /// A subscription (`MS`).
    Subscription,
}

impl EntityKind {
    fn tag(self) -> &'static str {
        match self {
            EntityKind::Node => "NN",
            EntityKind::Publisher => "MP",
            EntityKind::Subscription => "MS",
        }
    }
}

/// A name with every `/` replaced by `%` (a token's fields cannot hold a `/`; the root
/// namespace `/` becomes `%`).
pub fn mangle(name: &str) -> String {
    name.replace('/', "%")
}

/// The data key expression of topic `topic` (`/cmd_vel`) of type `dds_type`
/// (`geometry_msgs::msg::dds_::Twist_`) with hash `type_hash` in ROS domain `domain`:
/// `0/cmd_vel/geometry_msgs::msg::dds_::Twist_/RIHS01_…` (the topic's outer slashes dropped).
pub fn topic_key(domain: u32, topic: &str, dds_type: &str, type_hash: &str) -> String {
    format!(
        "{domain}/{}/{dds_type}/{type_hash}",
        topic.trim_matches('/')
    )
}

/// A topic's quality of service, as far as treadsim sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Qos {
    /// Reliable (else best effort).
    pub reliable: bool,
    /// Transient local (else volatile).
    pub transient_local: bool,
    /// Keep-last history depth.
    pub depth: u32,
}

impl Qos {
    /// ROS 2's default profile for topics: reliable, volatile, keep last 10.
    pub const DEFAULT: Qos = Qos {
        reliable: true,
        transient_local: false,
        depth: 10,
    };

    /// The QoS field of a liveliness token: each policy left empty where it is rmw_zenoh's
    /// default (reliable, transient local, keep last 42, no deadline, lifespan or lease).
    pub fn token_field(&self) -> String {
        let reliability = if self.reliable { "" } else { "2" };
        let durability = if self.transient_local { "" } else { "2" };
        let depth = if self.depth == 42 {
            String::new()
        } else {
            self.depth.to_string()
        };
        format!("{reliability}:{durability}:,{depth}:,:,:,,")
    }
}

/// Who an entity's token names: the Zenoh session, the node, the entity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeName {
    /// ROS domain id.
    pub domain: u32,
    /// The Zenoh session's id (as Zenoh prints it).
    pub session: String,
    /// The node's id within the session.
    pub node_id: u32,
    /// Namespace (`/` for the root).
    pub namespace: String,
    /// The node's name.
    pub name: String,
}

impl NodeName {
    /// The token's part up to the node's name, for entity `entity_id` of kind `kind`.
    fn prefix(&self, entity_id: u32, kind: EntityKind) -> String {
        format!(
            "{ADMIN_SPACE}/{}/{}/{}/{entity_id}/{}/%/{}/{}",
            self.domain,
            self.session,
            self.node_id,
            kind.tag(),
            mangle(&self.namespace),
            mangle(&self.name)
        )
    }

    /// The node's own liveliness token (its entity id is its node id).
    pub fn node_token(&self) -> String {
        self.prefix(self.node_id, EntityKind::Node)
    }

    /// The liveliness token of the node's publisher or subscription `entity_id` on `topic`.
    pub fn endpoint_token(
        &self,
        entity_id: u32,
        kind: EntityKind,
        topic: &str,
        type_name: &str,
        type_hash: &str,
        qos: Qos,
    ) -> String {
        format!(
            "{}/{}/{}/{}/{}",
            self.prefix(entity_id, kind),
            mangle(topic),
            mangle(&super::types::dds_name(type_name)),
            mangle(type_hash),
            qos.token_field()
        )
    }
}

/// Length of a source GID, bytes (`RMW_GID_STORAGE_SIZE`).
pub const GID_LEN: usize = 16;

/// A sample's attachment as rmw_zenoh writes it with Zenoh's serializer: the sequence number
/// and the source timestamp (ns since the Unix epoch) as little-endian `i64`, then the source
/// GID as a sequence (its length, 16, as one LEB128 byte, and the 16 bytes): 33 bytes.
pub fn attachment(sequence: i64, timestamp_ns: i64, gid: &[u8; GID_LEN]) -> Vec<u8> {
    let mut out = Vec::with_capacity(33);
    out.extend_from_slice(&sequence.to_le_bytes());
    out.extend_from_slice(&timestamp_ns.to_le_bytes());
    out.push(GID_LEN as u8);
    out.extend_from_slice(gid);
    out
}

/// An attachment's sequence number, timestamp (ns) and GID, if it is one.
pub fn read_attachment(bytes: &[u8]) -> Option<(i64, i64, [u8; GID_LEN])> {
    if bytes.len() != 8 + 8 + 1 + GID_LEN || usize::from(bytes[16]) != GID_LEN {
        return None;
    }
    let mut word = [0; 8];
    word.copy_from_slice(&bytes[..8]);
    let sequence = i64::from_le_bytes(word);
    word.copy_from_slice(&bytes[8..16]);
    let timestamp = i64::from_le_bytes(word);
    let mut gid = [0; GID_LEN];
    gid.copy_from_slice(&bytes[17..]);
    Some((sequence, timestamp, gid))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node() -> NodeName {
        NodeName {
            domain: 0,
            session: "aabbcc".into(),
            node_id: 0,
            namespace: "/".into(),
            name: "treadsim".into(),
        }
    }

    #[test]
    fn keys_and_tokens_are_spelled_as_rmw_zenoh_spells_them() {
        assert_eq!(
            topic_key(
                0,
                "/cmd_vel",
                "geometry_msgs::msg::dds_::Twist_",
                "RIHS01_ab"
            ),
            "0/cmd_vel/geometry_msgs::msg::dds_::Twist_/RIHS01_ab"
        );
        assert_eq!(node().node_token(), "@ros2_lv/0/aabbcc/0/0/NN/%/%/treadsim");
        assert_eq!(
            node().endpoint_token(
                3,
                EntityKind::Publisher,
                "/odom",
                super::super::types::ODOMETRY,
                "RIHS01_cd",
                Qos::DEFAULT
            ),
            "@ros2_lv/0/aabbcc/0/3/MP/%/%/treadsim/%odom/nav_msgs::msg::dds_::Odometry_/\
             RIHS01_cd/:2:,10:,:,:,,"
        );
        // rmw_zenoh's own default profile leaves every field empty.
        let rmw_default = Qos {
            reliable: true,
            transient_local: true,
            depth: 42,
        };
        assert_eq!(rmw_default.token_field(), "::,:,:,:,,");
    }

    #[test]
    fn an_attachment_is_33_bytes_and_reads_back() {
        let gid = [7; GID_LEN];
        let a = attachment(5, 1_700_000_000_123_456_789, &gid);
        assert_eq!(a.len(), 33);
        assert_eq!(a[16], 16);
        assert_eq!(
            read_attachment(&a),
            Some((5, 1_700_000_000_123_456_789, gid))
        );
        assert_eq!(read_attachment(&a[..32]), None);
    }
}
